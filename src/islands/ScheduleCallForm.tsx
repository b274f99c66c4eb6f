import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import type { Slot } from '../server/slots';
import {
  callRequestLimits,
  validateCallRequest,
  type BookingField,
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

// Loaded only when a visitor asks to choose a time: the dialog's first tap does not wait for it.
const TimePicker = lazy(() => import('./TimePicker'));

interface Props {
  /** What the visitor sent, when the server renders the form again after a native post. */
  values?: Record<string, string | string[]>;
  errors?: FieldErrors<BookingField>;
  /** /send-mail.php (the dialog), or /schedule, whose page lists the free times itself. */
  action?: string;
  /** The /schedule page's list of free times (server-rendered), placed after the message. */
  children?: ReactNode;
  /** The id of the control a time's error links to: the list of times given as children. */
  timeTarget?: string;
  /** Offer to choose a time in the dialog (the lazy time picker); /schedule lists them instead. */
  timePicker?: boolean;
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
  timeTarget,
  timePicker = false,
  submitLabel = 'Request a call',
}: Props) {
  const id = useId();
  const [choosingTime, setChoosingTime] = useState(false);
  const [chosen, setChosen] = useState<Slot | null>(null);
  const [alternatives, setAlternatives] = useState<Slot[] | undefined>();
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
      onRefused: (answer) => {
        // The time was just taken: the picker offers the nearest free ones instead.
        if (answer.alternatives) {
          setChosen(null);
          setAlternatives(answer.alternatives);
        }
      },
    });
  const timeId = timeTarget ?? `${id}-time`;
  const summary: SummaryItem[] = [
    ...fields.flatMap(({ name }) =>
      errors[name] ? [{ message: errors[name]!, target: `${id}-${name}` }] : [],
    ),
    ...(errors.slot ? [{ message: errors.slot, target: timeId }] : []),
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
      {timePicker && (
        <div className="call-time">
          {choosingTime ? (
            <Suspense
              fallback={
                <p className="call-time__status" role="status">
                  Loading the free times…
                </p>
              }
            >
              <TimePicker
                id={timeId}
                error={errors.slot}
                alternatives={alternatives}
                onChoose={setChosen}
                onCancel={() => {
                  setChosen(null);
                  setAlternatives(undefined);
                  setChoosingTime(false);
                }}
              />
            </Suspense>
          ) : (
            <p className="call-time__offer">
              {/* Without JavaScript, the link leads to /schedule, which lists the free times. */}
              <a
                id={timeId}
                href="/schedule"
                className="call-time__choose"
                onClick={(event) => {
                  event.preventDefault();
                  setChoosingTime(true);
                }}
              >
                Choose a time for the call
              </a>{' '}
              (optional): we will send you a calendar invitation.
            </p>
          )}
        </div>
      )}
      <Honeypot />
      <IdempotencyKey values={values} />
      <SubmitButton sending={sending}>{chosen ? 'Book this call' : submitLabel}</SubmitButton>
    </form>
  );
}
