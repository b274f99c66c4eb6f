/**
 * What the enquiry form and the call form share: the error summary at the top
 * (the GOV.UK Design System's pattern), the message under a field, and the
 * submission by fetch with its three outcomes (thank-you page, field errors
 * from the server, a visible failure that keeps what was typed).
 */
import { useEffect, useId, useRef, useState, type RefObject, type SubmitEvent } from 'react';
import { post, Unreachable, type QueuedEnquiry } from '../offline/device-queue';
import { HONEYPOT_FIELD, IDEMPOTENCY_FIELD, type FieldErrors } from '../domain/forms';
import { keepEnquiry } from '../stores/device-queue';
import { OutboxMessage } from './OutboxNotice';
import { useTakeOver } from './use-take-over';

export interface SummaryItem {
  message: string;
  /** The id of the control the message links to. */
  target: string;
}

export function ErrorSummary({
  items,
  summaryRef,
}: {
  items: SummaryItem[];
  summaryRef: RefObject<HTMLDivElement | null>;
}) {
  const id = useId();
  if (items.length === 0) return null;
  return (
    <div
      className="error-summary"
      ref={summaryRef}
      tabIndex={-1}
      role="alert"
      aria-labelledby={`${id}-title`}
    >
      <h2 className="error-summary__title" id={`${id}-title`}>
        There is a problem
      </h2>
      <ul className="error-summary__list">
        {items.map((item) => (
          <li key={item.target}>
            <a
              href={`#${item.target}`}
              onClick={(event) => {
                // Focus the control itself (the link alone would only scroll to it).
                const control = document.getElementById(item.target);
                if (control) {
                  event.preventDefault();
                  control.focus();
                }
              }}
            >
              {item.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="field__error" id={id}>
      {message}
    </p>
  );
}

/** Attributes that tie a control to its error message. */
export const describedBy = (id: string, message: string | undefined) =>
  message ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};

interface SubmitOptions<Field extends string> {
  /** What the form sends, as the notice of an enquiry kept on the device names it. */
  kind: QueuedEnquiry['kind'];
  /** Client-side check with the server's rules; returns the errors found. */
  validate(data: FormData): FieldErrors<Field>;
  /** Errors the server rendered the form with (a native post that failed), if any. */
  initialErrors?: FieldErrors<Field>;
  /** Told of a refusal with field errors (422, or 409 for a time just taken) and its answer. */
  onRefused?(answer: RefusedAnswer<Field>): void;
}

/** The server's JSON answer to a post it refused. */
export interface RefusedAnswer<Field extends string> {
  errors?: FieldErrors<Field>;
  error?: string;
  /** A booked time that was just taken: the free times nearest to it. */
  alternatives?: { start: string; end: string }[];
}

/**
 * Validates on submit, then posts with fetch. On a 2xx it goes to /thankyou;
 * on 422 it shows the server's field errors. When the post cannot reach the
 * server (no network, or no answer in time), or the server cannot take it just
 * then (503), the submission is kept on the device and sent again by itself
 * (src/stores/device-queue.ts), and the form says so. On anything else it shows a
 * message, logs 'Error submitting form' and leaves the fields as they are.
 */
export function useFormSubmit<Field extends string>({
  kind,
  validate,
  initialErrors = {},
  onRefused,
}: SubmitOptions<Field>) {
  const [errors, setErrors] = useState<FieldErrors<Field>>(initialErrors);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const failureRef = useRef<HTMLParagraphElement>(null);
  /** The key of the submission this form kept on the device, if any. */
  const [keptKey, setKeptKey] = useState<string | null>(null);
  const keptRef = useRef<HTMLDivElement>(null);
  // From hydration on, this hook posts the form; before it, the browser does (first-move/page.ts).
  const formRef = useTakeOver<HTMLFormElement>();
  const idempotencyKey = useRef('');

  // After each failed attempt, focus moves to the summary, so it is read out and visible.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (attempt > 0) (keptKey ? keptRef : failure ? failureRef : summaryRef).current?.focus();
  }, [attempt, failure, keptKey]);

  /** Keeps the submission on the device; false if it cannot be (no IndexedDB, storage blocked). */
  const keepForLater = async (
    form: HTMLFormElement,
    data: FormData,
    why: 'offline' | 'busy' = 'offline',
  ) => {
    const key = idempotencyKey.current;
    try {
      await keepEnquiry({
        key,
        action: new URL(form.action).pathname,
        kind,
        fields: [...data].filter(
          (field): field is [string, string] => typeof field[1] === 'string',
        ),
        queuedAt: Date.now(),
        why,
      });
    } catch {
      return false;
    }
    // It is safe on the device: the form is ready for another one, with a key of its own.
    idempotencyKey.current = '';
    form.reset();
    setKeptKey(key);
    return true;
  };

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    // One key per submission, kept for its retries (React resets the hidden field's attribute on each
    // render, so the hook keeps it): the server stores the submission once however often it arrives.
    idempotencyKey.current ||= String(data.get(IDEMPOTENCY_FIELD) ?? '') || newIdempotencyKey();
    data.set(IDEMPOTENCY_FIELD, idempotencyKey.current);
    const found = validate(data);
    setFailure(null);
    setKeptKey(null);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setAttempt((n) => n + 1);
      return;
    }
    setSending(true);
    try {
      const response = await post(form.action, data);
      if (response.ok) {
        // A booked call has a confirmation page of its own; anything else, the thank-you page.
        const { location } = (await response.json().catch(() => ({}))) as { location?: string };
        window.location.assign(location && /^\/(?!\/)/.test(location) ? location : '/thankyou');
        return;
      }
      // The server could not take it just now (its database is down): nothing was stored, so it
      // waits on the device like an enquiry written without a connection.
      if (response.status === 503 && (await keepForLater(form, data, 'busy'))) return;
      const body = (await response.json().catch(() => ({}))) as RefusedAnswer<Field>;
      if ((response.status === 422 || response.status === 409) && body.errors) {
        setErrors(body.errors);
        onRefused?.(body);
      } else {
        throw new Error(body.error ?? `The server answered ${response.status}`);
      }
    } catch (error) {
      if (error instanceof Unreachable && (await keepForLater(form, data))) return;
      console.error('Error submitting form', error);
      const reason =
        error instanceof Error && !(error instanceof TypeError) ? ` ${error.message}` : '';
      setFailure(
        `Sorry, your message could not be sent.${reason} Nothing you typed has been lost: please try again in a moment.`,
      );
    } finally {
      setSending(false);
      setAttempt((n) => n + 1);
    }
  };

  return { errors, failure, sending, onSubmit, summaryRef, failureRef, formRef, keptKey, keptRef };
}

/** Where the form tells what became of a submission it kept on the device. */
export function KeptStatus({
  itemKey,
  keptRef,
}: {
  itemKey: string | null;
  keptRef: RefObject<HTMLDivElement | null>;
}) {
  if (!itemKey) return null;
  return (
    <div className="form__kept" role="status" tabIndex={-1} ref={keptRef}>
      <OutboxMessage itemKey={itemKey} />
    </div>
  );
}

export function FailureMessage({
  message,
  failureRef,
}: {
  message: string | null;
  failureRef: RefObject<HTMLParagraphElement | null>;
}) {
  if (!message) return null;
  return (
    <p className="form__failure" role="alert" tabIndex={-1} ref={failureRef}>
      {message}
    </p>
  );
}

/** The submit button, which says so and cannot be pressed twice while the form is being sent. */
export function SubmitButton({ sending, children }: { sending: boolean; children: string }) {
  return (
    <button
      type="submit"
      className="button button--primary"
      disabled={sending}
      aria-disabled={sending || undefined}
    >
      {sending ? 'Sending…' : children}
    </button>
  );
}

/** A random key: a UUID, or 32 hex digits where randomUUID is not offered (a page not served over HTTPS). */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}

/**
 * The submission's idempotency key (see IDEMPOTENCY_FIELD): empty in the page, where useFormSubmit
 * makes one when the form is first sent; a form the server shows again keeps the key it was sent with.
 */
export function IdempotencyKey({ values }: { values?: Record<string, string | string[]> }) {
  const value = values?.[IDEMPOTENCY_FIELD];
  return (
    <input
      type="hidden"
      name={IDEMPOTENCY_FIELD}
      defaultValue={typeof value === 'string' ? value : ''}
    />
  );
}

/** A field hidden from people (and from assistive technology) that only bots fill in. */
export function Honeypot() {
  const id = useId();
  return (
    <div className="honeypot" aria-hidden="true">
      <label htmlFor={id}>Leave this field empty</label>
      <input
        id={id}
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  );
}
