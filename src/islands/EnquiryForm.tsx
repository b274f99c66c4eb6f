import { Captcha } from './Captcha';
import {
  enquiryLimits,
  validateEnquiry,
  type EnquiryField,
  type FieldErrors,
} from '../domain/forms';
import {
  ErrorSummary,
  FailureMessage,
  FieldError,
  Honeypot,
  IdempotencyKey,
  KeptStatus,
  SubmitButton,
  describedBy,
  useFormSubmit,
  type SummaryItem,
} from './form-kit';

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
  const { errors, failure, sending, onSubmit, summaryRef, failureRef, formRef, keptKey, keptRef } =
    useFormSubmit<EnquiryField>({
      kind: 'enquiry',
      initialErrors,
      validate: (data) =>
        validateEnquiry(
          {
            first_name: String(data.get('first_name') ?? ''),
            last_name: String(data.get('last_name') ?? ''),
            email: String(data.get('email') ?? ''),
            contact: String(data.get('contact') ?? ''),
            service: data.getAll('service').map(String),
            project: String(data.get('project') ?? ''),
          },
          services,
        ).errors,
    });

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
      ref={formRef}
      className="form enquiry-form"
      method="post"
      action="/php/email.php"
      encType="multipart/form-data"
      noValidate
      onSubmit={onSubmit}
    >
      <ErrorSummary items={summary} summaryRef={summaryRef} />
      <FailureMessage message={failure} failureRef={failureRef} />
      <KeptStatus itemKey={keptKey} keptRef={keptRef} />
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
        <textarea
          id="project"
          name="project"
          rows={6}
          maxLength={enquiryLimits.project}
          defaultValue={text(values, 'project')}
          {...describedBy('project', errors.project)}
        />
        <FieldError id="project-error" message={errors.project} />
      </div>
      <Captcha id="captcha" error={errors.captcha} />
      <Honeypot />
      <IdempotencyKey values={values} />
      <SubmitButton sending={sending}>Send enquiry</SubmitButton>
    </form>
  );
}
