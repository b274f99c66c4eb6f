/**
 * What a form does with the server's answer to its fetch, decided from the status and the JSON body
 * alone (no DOM, no network), so that it can be tested by itself: go where the server says, keep
 * the submission on the device, show the field errors, or show a failure.
 */
import {
  endpoints,
  isSitePath,
  refusalReason,
  type RefusalAnswer,
  type SuccessAnswer,
} from '../../domain/api';
import type { FieldErrors } from '../../domain/forms';

export type SubmissionOutcome<Field extends string> =
  /** Stored: go to `location` (a path of this site). */
  | { type: 'sent'; location: string }
  /**
   * The server could not take it just now (503), or it was not reached (a proxy's 502 or 504 while
   * it restarts): nothing was stored, it can wait on the device (its idempotency key makes sending
   * it again safe).
   */
  | { type: 'busy'; message: string }
  /** Refused for its fields (422, or 409 for a time just taken): show them. */
  | { type: 'refused'; answer: RefusalAnswer<Field> & { errors: FieldErrors<Field> } }
  /** Anything else: say so (its reason, if it gave one), and keep what was typed. */
  | { type: 'failed'; message: string };

/**
 * A gateway's answer, not the site's: the site never answers 502 or 504 itself, and its JSON always
 * says something (`ok`, `error` or `errors`); a proxy's page while the server restarts says none.
 */
const fromGateway = (status: number, answer: object) =>
  (status === 502 || status === 504) && !['ok', 'error', 'errors'].some((key) => key in answer);

/** The outcome of an answer; `body` is its parsed JSON, or anything else when it had none. */
export function submissionOutcome<Field extends string>(
  status: number,
  body: unknown,
): SubmissionOutcome<Field> {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as Partial<SuccessAnswer> &
    RefusalAnswer<Field>;
  if (status >= 200 && status < 300) {
    // A booked call has a confirmation page of its own; anything else, the thank-you page.
    return {
      type: 'sent',
      location: isSitePath(answer.location) ? answer.location : endpoints.thankYou,
    };
  }
  const message = refusalReason(answer);
  if (status === 503 || fromGateway(status, answer)) return { type: 'busy', message };
  if ((status === 422 || status === 409) && answer.errors)
    return { type: 'refused', answer: { ...answer, errors: answer.errors } };
  return { type: 'failed', message };
}
