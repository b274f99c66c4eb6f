/**
 * The submission of either form by fetch. It validates on submit with the server's rules, then
 * posts, and does what submission.ts decides from the answer: go where the server's `location`
 * says (a booked call's confirmation, else /thankyou); show the server's field errors (422, or
 * 409 for a time just taken); when the post cannot reach the server (no network, or no answer in
 * time) or the server cannot take it just then (503, or a proxy's 502 or 504 while it restarts),
 * keep it on the device to be sent again by
 * itself (src/stores/device-queue.ts) and say so; on anything else show a message, log 'Error
 * submitting form' and leave the fields as they are. After each failed attempt focus moves to
 * what says why, so it is read out and visible.
 */
import { useEffect, useRef, useState, type RefObject, type SubmitEvent } from 'react';
import { post, Unreachable } from '../../offline/device-queue';
import { keepEnquiry } from '../../stores/device-queue';
import type { RefusalAnswer } from '../../domain/api';
import {
  IDEMPOTENCY_FIELD,
  type EnquiryKind,
  type FieldErrors,
  type FieldValues,
} from '../../domain/forms';
import { useTakeOver } from '../use-take-over';
import { newIdempotencyKey } from './IdempotencyKey';
import { submissionOutcome } from './submission';

export interface SubmitOptions<Field extends string> {
  /** What the form sends, as the notice of an enquiry kept on the device names it. */
  kind: EnquiryKind;
  /** Client-side check with the server's rules (the domain's mapping and validator); the errors found. */
  validate(values: FieldValues): FieldErrors<Field>;
  /** Errors the server rendered the form with (a native post that failed), if any. */
  initialErrors?: FieldErrors<Field>;
  /** Told of a refusal with field errors (422, or 409 for a time just taken) and its answer. */
  onRefused?(answer: RefusalAnswer<Field>): void;
  /** Told once the submission is safe (sent, or kept on the device), before the page moves on. */
  onSafe?(): Promise<void> | void;
}

/** A form's submission state and handles, passed whole to the form's parts (ErrorSummary, …). */
export interface FormSubmit<Field extends string> {
  errors: FieldErrors<Field>;
  /** Why the last post failed, other than for its fields. */
  failure: string | null;
  sending: boolean;
  /** The key of the submission this form kept on the device, if any. */
  keptKey: string | null;
  onSubmit(event: SubmitEvent<HTMLFormElement>): Promise<void>;
  formRef: RefObject<HTMLFormElement | null>;
  summaryRef: RefObject<HTMLDivElement | null>;
  failureRef: RefObject<HTMLParagraphElement | null>;
  keptRef: RefObject<HTMLDivElement | null>;
}

export function useFormSubmit<Field extends string>({
  kind,
  validate,
  initialErrors = {},
  onRefused,
  onSafe,
}: SubmitOptions<Field>): FormSubmit<Field> {
  const [errors, setErrors] = useState<FieldErrors<Field>>(initialErrors);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const failureRef = useRef<HTMLParagraphElement>(null);
  const [keptKey, setKeptKey] = useState<string | null>(null);
  const keptRef = useRef<HTMLDivElement>(null);
  // From hydration on, this hook posts the form; before it, the browser does, guarded by the first move in layouts/BaseLayout.astro.
  const formRef = useTakeOver<HTMLFormElement>();
  const idempotencyKey = useRef('');

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
    await onSafe?.();
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
    const found = validate((name) => data.getAll(name).map(String));
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
      const outcome = submissionOutcome<Field>(
        response.status,
        await response.json().catch(() => ({})),
      );
      if (outcome.type === 'sent') {
        await onSafe?.();
        window.location.assign(outcome.location);
        return;
      }
      // The server could not take it just now (its database is down, or it is restarting behind its
      // proxy): nothing was stored, so it waits on the device like one written without a connection.
      if (outcome.type === 'busy' && (await keepForLater(form, data, 'busy'))) return;
      if (outcome.type !== 'refused') throw new Error(outcome.message);
      setErrors(outcome.answer.errors);
      onRefused?.(outcome.answer);
    } catch (error) {
      if (error instanceof Unreachable && (await keepForLater(form, data))) return;
      console.error('Error submitting form', error);
      const reason =
        error instanceof Error && !(error instanceof TypeError) ? ` ${error.message}` : '';
      // The server's reason says what to do (a rate limit's minutes): then not "in a moment" too.
      setFailure(
        `Sorry, your message could not be sent.${reason || ' Please try again in a moment.'} Nothing you typed has been lost.`,
      );
    } finally {
      setSending(false);
      setAttempt((n) => n + 1);
    }
  };

  return { errors, failure, sending, keptKey, onSubmit, formRef, summaryRef, failureRef, keptRef };
}
