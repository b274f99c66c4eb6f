import { Captcha } from './Captcha';
import { endpoints } from '../domain/api';
import {
  enquiryInput,
  enquiryLimits,
  validateEnquiry,
  type EnquiryField,
} from '../domain/enquiry-form';
import type { FieldErrors } from '../domain/forms';
import { grouped } from '../domain/numbers';
import { describedBy } from './forms/described-by';
import { ErrorSummary, type SummaryItem } from './forms/ErrorSummary';
import { FailureMessage } from './forms/FailureMessage';
import { FieldError } from './forms/FieldError';
import { Honeypot } from './forms/Honeypot';
import { IdempotencyKey } from './forms/IdempotencyKey';
import { KeptStatus } from './forms/KeptStatus';
import { SubmitButton } from './forms/SubmitButton';
import { useFormSubmit } from './forms/use-form-submit';

interface Props {
  /** The service options of the form (spec §9), from the content. */
  services: string[];
  /** What the visitor sent, when the server renders the form again after a native post. */
  values?: Record<string, string | string[]>;
  errors?: FieldErrors<EnquiryField>;
}

const text = (values: Props['values'], name: string) => {
  const value = values?.[name];
  return typeof value === 'string' ? value : '';
};

/**
 * The enquiry form. Without JavaScript it posts natively to /php/email.php,
 * whose answer is either /thankyou or this form again with its errors. Once
 * hydrated it checks the fields with the server's rules and posts with fetch.
 */
export default function EnquiryForm({ services, values, errors: initialErrors }: Props) {
  const submit = useFormSubmit<EnquiryField>({
    kind: 'enquiry',
    initialErrors,
    validate: (values) => validateEnquiry(enquiryInput(values), services).errors,
  });
  const { errors } = submit;

  const chosen = new Set(([] as string[]).concat(values?.service ?? []));
  const order: [EnquiryField, string][] = [
    ['first_name', 'first_name'],
    ['last_name', 'last_name'],
    ['email', 'email'],
    ['contact', 'contact'],
    ['service', 'service-0'],
    ['project', 'project'],
    ['captcha', 'captcha'],
  ];
  const summary: SummaryItem[] = order.flatMap(([field, target]) =>
    errors[field] ? [{ message: errors[field]!, target }] : [],
  );

  const input = (
    name: 'first_name' | 'last_name' | 'email' | 'contact',
    label: string,
    attributes: Record<string, string | number | boolean>,
    optional = false,
  ) => (
    <div className="field">
      <label htmlFor={name}>
        {label}
        {optional && <span className="field__optional"> (optional)</span>}
      </label>
      <input
        id={name}
        name={name}
        defaultValue={text(values, name)}
        {...attributes}
        {...describedBy(name, errors[name])}
      />
      <FieldError id={`${name}-error`} message={errors[name]} />
    </div>
  );

  return (
    <form
      ref={submit.formRef}
      className="form enquiry-form"
      method="post"
      action={endpoints.enquiry}
      encType="multipart/form-data"
      noValidate
      onSubmit={submit.onSubmit}
    >
      <ErrorSummary items={summary} submit={submit} />
      <FailureMessage submit={submit} />
      <KeptStatus submit={submit} />
      <div className="form__row">
        {input('first_name', 'First name', {
          type: 'text',
          autoComplete: 'given-name',
          maxLength: enquiryLimits.name,
        })}
        {input('last_name', 'Last name', {
          type: 'text',
          autoComplete: 'family-name',
          maxLength: enquiryLimits.name,
        })}
      </div>
      <div className="form__row">
        {input('email', 'Email', {
          type: 'email',
          autoComplete: 'email',
          maxLength: enquiryLimits.email,
          spellCheck: false,
        })}
        {input(
          'contact',
          'Phone number',
          { type: 'tel', autoComplete: 'tel', inputMode: 'tel' },
          true,
        )}
      </div>
      <fieldset
        className="field field--group"
        {...(errors.service ? { 'aria-describedby': 'service-error' } : {})}
      >
        <legend>
          Which services are you interested in? <span className="field__optional">(optional)</span>
        </legend>
        <ul className="checkboxes" role="list">
          {services.map((service, index) => (
            <li key={service}>
              <input
                id={`service-${index}`}
                type="checkbox"
                name="service"
                value={service}
                defaultChecked={chosen.has(service)}
              />
              <label htmlFor={`service-${index}`}>{service}</label>
            </li>
          ))}
        </ul>
        <FieldError id="service-error" message={errors.service} />
      </fieldset>
      <div className="field">
        <label htmlFor="project">
          About your project <span className="field__optional">(optional)</span>
        </label>
        {/* How much it takes, said before: it has no cap (a maxlength cut a pasted brief at
            5,000 characters without a word); a longer one gets its error and stays to be cut. */}
        <p id="project-hint" className="field__hint">
          Up to {grouped(enquiryLimits.project)} characters.
        </p>
        <textarea
          id="project"
          name="project"
          rows={6}
          defaultValue={text(values, 'project')}
          {...describedBy('project', errors.project)}
          aria-describedby={errors.project ? 'project-hint project-error' : 'project-hint'}
        />
        <FieldError id="project-error" message={errors.project} />
      </div>
      <Captcha id="captcha" error={errors.captcha} />
      <Honeypot />
      <IdempotencyKey values={values} />
      <SubmitButton submit={submit}>Send enquiry</SubmitButton>
    </form>
  );
}
