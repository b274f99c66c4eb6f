import { useStore } from '@nanostores/react';
import { useId, type ReactNode } from 'react';
import {
  callRequestLimits,
  validateCallRequest,
  type BookingField,
  type CallRequestField,
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
import { Captcha } from './Captcha';
import { $chosenTime, $timeRefusal, CALL_TIME_ID } from '../stores/call-modal';

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
  errors?: FieldErrors<BookingField>;
  /** /send-mail.php (the dialog), or /schedule, whose page lists the free times itself. */
  action?: string;
  /** The /schedule page's list of free times (server-rendered), placed after the message. */
  children?: ReactNode;
  /**
   * The dialog's time step (CallTimeStep, an island of its own, placed after the message), whose
   * choice and refusals pass through src/stores/call-modal.ts.
   */
  timeStep?: ReactNode;
  /** The id of the control a refused time's message links to. */
  timeTarget?: string;
  submitLabel?: string;
}

/**
 * The Schedule a Call form: name, email and message, all required, with the spec's messages under
 * the fields, and optionally a time for the call (which books it). It posts to /send-mail.php (or
 * /schedule), natively or, once hydrated, with fetch.
 */
export default function ScheduleCallForm({
  values,
  errors: initialErrors,
  action = '/send-mail.php',
  children,
  timeStep,
  timeTarget = CALL_TIME_ID,
  submitLabel = 'Request a call',
}: Props) {
  const id = useId();
  const chosen = useStore($chosenTime);
  const { errors, failure, sending, onSubmit, summaryRef, failureRef, formRef, keptKey, keptRef } =
    useFormSubmit<BookingField>({
      kind: 'call',
      initialErrors,
      validate: (data) =>
        validateCallRequest({
          name: String(data.get('name') ?? ''),
          email: String(data.get('email') ?? ''),
          message: String(data.get('message') ?? ''),
        }),
      // A refused time (just taken: with the nearest free ones) is shown by the time step.
      onRefused: ({ errors, alternatives }) => {
        if (!errors?.slot) return;
        if (alternatives) $chosenTime.set(null);
        $timeRefusal.set({ error: errors.slot, alternatives });
      },
    });
  const summary: SummaryItem[] = [
    ...fields.flatMap(({ name }) =>
      errors[name] ? [{ message: errors[name]!, target: `${id}-${name}` }] : [],
    ),
    ...(errors.slot ? [{ message: errors.slot, target: timeTarget }] : []),
    ...(errors.captcha ? [{ message: errors.captcha, target: `${id}-captcha` }] : []),
  ];

  return (
    <form
      ref={formRef}
      className="form"
      method="post"
      action={action}
      noValidate
      onSubmit={onSubmit}
    >
      <ErrorSummary items={summary} summaryRef={summaryRef} />
      <FailureMessage message={failure} failureRef={failureRef} />
      <KeptStatus itemKey={keptKey} keptRef={keptRef} />
      {children}
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
      {timeStep}
      <Captcha id={`${id}-captcha`} error={errors.captcha} />
      <Honeypot />
      <IdempotencyKey values={values} />
      <SubmitButton sending={sending}>{chosen ? 'Book this call' : submitLabel}</SubmitButton>
    </form>
  );
}
