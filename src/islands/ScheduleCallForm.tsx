import { useId } from 'react';
import {
  callRequestLimits,
  validateCallRequest,
  type CallRequestField,
  type FieldErrors,
} from '../server/validation';
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

const fields: {
  name: CallRequestField;
  label: string;
  type: 'text' | 'email' | 'textarea';
  autoComplete?: string;
}[] = [
  { name: 'name', label: 'Name', type: 'text', autoComplete: 'name' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'message', label: 'Message', type: 'textarea' },
];

interface Props {
  /** What the visitor sent, when the server renders the form again after a native post. */
  values?: Record<string, string | string[]>;
  errors?: FieldErrors<CallRequestField>;
}

/**
 * The Schedule a Call form: name, email and message, all required, with the
 * spec's messages under the fields. It posts to /send-mail.php, natively or,
 * once hydrated, with fetch.
 */
export default function ScheduleCallForm({ values, errors: initialErrors }: Props) {
  const id = useId();
  const { errors, failure, sending, onSubmit, summaryRef, failureRef, formRef, keptKey, keptRef } =
    useFormSubmit<CallRequestField>({
      kind: 'call',
      initialErrors,
      validate: (data) =>
        validateCallRequest({
          name: String(data.get('name') ?? ''),
          email: String(data.get('email') ?? ''),
          message: String(data.get('message') ?? ''),
        }),
    });
  const summary: SummaryItem[] = fields.flatMap(({ name }) =>
    errors[name] ? [{ message: errors[name]!, target: `${id}-${name}` }] : [],
  );

  return (
    <form
      ref={formRef}
      className="form"
      method="post"
      action="/send-mail.php"
      noValidate
      onSubmit={onSubmit}
    >
      <ErrorSummary items={summary} summaryRef={summaryRef} />
      <FailureMessage message={failure} failureRef={failureRef} />
      <KeptStatus itemKey={keptKey} keptRef={keptRef} />
      {fields.map((field) => {
        const error = errors[field.name];
        const inputId = `${id}-${field.name}`;
        const common = {
          id: inputId,
          name: field.name,
          maxLength: callRequestLimits[field.name],
          defaultValue:
            typeof values?.[field.name] === 'string' ? (values[field.name] as string) : '',
          ...describedBy(inputId, error),
        };
        return (
          <div className="field" key={field.name}>
            <label htmlFor={inputId}>{field.label}</label>
            {field.type === 'textarea' ? (
              <textarea {...common} rows={4} />
            ) : (
              <input {...common} type={field.type} autoComplete={field.autoComplete} />
            )}
            <FieldError id={`${inputId}-error`} message={error} />
          </div>
        );
      })}
      <Honeypot />
      <IdempotencyKey values={values} />
      <SubmitButton sending={sending}>Request a call</SubmitButton>
    </form>
  );
}
