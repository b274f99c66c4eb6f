import { useStore } from '@nanostores/react';
import { useId, type ReactNode } from 'react';
import { endpoints } from '../domain/api';
import {
  callRequestInput,
  callRequestLimits,
  validateCallRequest,
  type BookingField,
  type CallRequestField,
} from '../domain/call-form';
import type { FieldErrors } from '../domain/forms';
import { describedBy } from './forms/described-by';
import { ErrorSummary, type SummaryItem } from './forms/ErrorSummary';
import { FailureMessage } from './forms/FailureMessage';
import { FieldError } from './forms/FieldError';
import { Honeypot } from './forms/Honeypot';
import { IdempotencyKey } from './forms/IdempotencyKey';
import { KeptStatus } from './forms/KeptStatus';
import { SubmitButton } from './forms/SubmitButton';
import { useFormSubmit } from './forms/use-form-submit';
import { Captcha } from './Captcha';
import { $chosenTime, $timeRefusal, CALL_TIME_ID } from '../stores/call-modal';
import { forgetWrittenAgain } from '../stores/device-queue';
import { FIRST_TIMES } from '../domain/hand-over';

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
  action = endpoints.callRequest,
  children,
  timeStep,
  timeTarget = CALL_TIME_ID,
  submitLabel = 'Request a call',
}: Props) {
  const id = useId();
  const chosen = useStore($chosenTime);
  const submit = useFormSubmit<BookingField>({
    kind: 'call',
    initialErrors,
    validate: (values) => validateCallRequest(callRequestInput(values)),
    // A refused time (just taken: with the nearest free ones) is shown by the time step.
    onRefused: ({ errors, alternatives }) => {
      if (!errors?.slot) return;
      if (alternatives) $chosenTime.set(null);
      $timeRefusal.set({ error: errors.slot, alternatives });
    },
    // A kept request written again here (the notice's "Choose another time") is done with.
    onSafe: forgetWrittenAgain,
  });
  const { errors } = submit;
  const summary: SummaryItem[] = [
    ...fields.flatMap(({ name }) =>
      errors[name] ? [{ message: errors[name]!, target: `${id}-${name}` }] : [],
    ),
    ...(errors.slot ? [{ message: errors.slot, target: timeTarget }] : []),
    ...(errors.captcha ? [{ message: errors.captcha, target: `${id}-captcha` }] : []),
  ];

  return (
    <form
      ref={submit.formRef}
      className="form"
      method="post"
      action={action}
      noValidate
      onSubmit={submit.onSubmit}
      onChange={(event) => {
        // A time chosen among the first days the page's first move offers (FIRST_TIMES), before the
        // time step's code has come: the button books it.
        const input = event.target as unknown as HTMLInputElement;
        if (input.name === 'slot' && input.closest(`[${FIRST_TIMES}]`))
          $chosenTime.set({ start: input.value });
      }}
    >
      <ErrorSummary items={summary} submit={submit} />
      <FailureMessage submit={submit} />
      <KeptStatus submit={submit} />
      {children}
      {fields.map((field) => {
        const error = errors[field.name];
        const inputId = `${id}-${field.name}`;
        const common = {
          id: inputId,
          name: field.name,
          // No cap on the message: one pasted past it was cut without a word; its error says so.
          maxLength: field.type === 'textarea' ? undefined : callRequestLimits[field.name],
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
      <SubmitButton submit={submit}>{chosen ? 'Book this call' : submitLabel}</SubmitButton>
    </form>
  );
}
