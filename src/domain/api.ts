/**
 * The site's form endpoints and the JSON they answer, typed once: the server builds these answers
 * (src/server/http/answer.ts, src/pages/schedule/slots.json.ts), the islands and the phone's queue
 * (src/offline/device-queue.ts) read them.
 */
import type { Slot } from './booking.ts';
import type { FieldErrors } from './forms.ts';

export const endpoints = {
  /** The contact page's enquiry (POST). */
  enquiry: '/php/email.php',
  /** The Schedule a Call dialog's request (POST). */
  callRequest: '/send-mail.php',
  /** The free times as a plain form, for visitors without JavaScript (GET; POST books). */
  schedule: '/schedule',
  /** The free times as JSON (GET): FreeTimesAnswer; `?days=N`, those of the first N days that have any. */
  freeTimes: '/schedule/slots.json',
  /** Where a booked call lands, with `?token=` (its link signed for it: server/call-token.ts). */
  booked: '/schedule/booked',
  /** Where any other submission lands. */
  thankYou: '/thankyou',
  /** Field data: a page view's Core Web Vitals (POST, JSON: Beacon of ./vitals.ts); 204. */
  vitals: '/vitals',
} as const;

/** A post the server has stored (200 to a fetch; a native post is redirected to `location`). */
export interface SuccessAnswer {
  ok: true;
  id: string;
  /** A path of this site: the booked call's confirmation, or the thank-you page. */
  location: string;
}

/**
 * A path of this site only: an answer's `location` must not send the visitor elsewhere. Read as the
 * browser reads a link ('/\\elsewhere' and '/<tab>/elsewhere' are another site's), not by its first
 * characters.
 */
export function isSitePath(location: unknown): location is string {
  if (typeof location !== 'string' || !location.startsWith('/')) return false;
  try {
    return new URL(location, 'http://site.invalid').host === 'site.invalid';
  } catch {
    return false;
  }
}

/** A post the server refused: its field errors, or else its reason. */
export interface RefusalAnswer<Field extends string = string> {
  errors?: FieldErrors<Field>;
  error?: string;
  /** A booked time that was just taken (409): the free times nearest to it. */
  alternatives?: Slot[];
}

/**
 * A refusal's reason as a visitor reads it: the server's words, else its fields' messages; none
 * for an answer without words (a proxy's page, a crash), where the page says what to do instead.
 */
export const refusalReason = (answer: RefusalAnswer): string =>
  answer.error ||
  Object.values(answer.errors ?? {})
    .filter(Boolean)
    .join(' ');

/**
 * How many days of free times the dialog asks for first, as it opens (`?days=`): a small answer,
 * which a phone on a slow network has in one round trip; the time step then asks for the rest.
 */
export const FIRST_DAYS = 3;
/**
 * Where the page's first move (BaseLayout) keeps the promise of that first answer, on `window`, as it
 * asks for it when the dialog is first reached for: the time step's island (TimePicker) shows it at
 * once and asks for the rest.
 */
export const FIRST_FREE_TIMES = '__firstFreeTimes';
/**
 * The script that offers those first days as plain choices (src/client/first-times.ts, built to a
 * fixed address), which the first move loads beside the answer; and where the first move leaves the
 * time steps asked for before it has come, on `window`.
 */
export const FIRST_TIMES_SCRIPT = '/first-times.js';
export const FIRST_TIMES_WANTED = '__firstTimesWanted';
/** The most days one may ask for with `?days=`. */
export const MAX_DAYS = 60;

/** GET /schedule/slots.json: the free times, or why none can be booked; an ErrorAnswer on 400/503. */
export type FreeTimesAnswer =
  | { open: true; timeZone: string; callMinutes: number; slots: Slot[] }
  | { open: false; message: string; timeZone: string; slots: [] };

/** An endpoint's answer to a request it could not serve. */
export interface ErrorAnswer {
  error: string;
}

/**
 * What /staff/passkey answers (src/server/staff/passkeys.ts; the desk's passkey button reads it):
 * a ceremony's options (WebAuthn's JSON, with its challenge), a passkey added, where a member
 * signed in goes, or why not.
 */
export type PasskeyAnswer =
  { challenge: string } | { added: true } | { location: string } | ErrorAnswer;
