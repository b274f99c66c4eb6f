/**
 * What the booking and enquiry handlers are handed: the store, the bookings, the queue of jobs,
 * the calendars and the rest, each built once, from the configuration, by
 * src/server/app.ts (the server's front door). A handler asks for them with the `open` it is given:
 * the first ask opens the store, and an ask while the database is down is refused (the next tries
 * again).
 */
import type { ServerConfig } from '../config.ts';
import type { CalendarService } from '../calendars/service.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { RateLimit } from '../requests/rate-limit.ts';
import type { EnquiryStore } from '../store/types.ts';
import type { Bookings } from './calls.ts';
import type { BookingPaceAlert } from './pace-alert.ts';

export interface Services {
  config: ServerConfig;
  store: EnquiryStore;
  /** Bookings, moves, cancels and confirmations: ./rules.ts over the store's transactions. */
  bookings: Bookings;
  limiter: RateLimit | undefined;
  /** The staff desk's posts' own limit per network (more than the forms'): undefined when off. */
  staffLimiter: RateLimit | undefined;
  /**
   * The same limit, counted apart, for the posts of the signed out (sign-in links, passkeys): a
   * stranger on the office's network using it up does not stop the members' work.
   */
  signInLimiter: RateLimit | undefined;
  /**
   * The posts of a call's links (confirm, move, cancel), as generous as the desk's: their signed
   * token is the guard, and a prospect who had sent an enquiry, booked, confirmed and moved twice
   * was refused their cancel by the forms' few, "You have sent several messages".
   */
  linkLimiter: RateLimit | undefined;
  /** The queue of jobs that sends the e-mails; undefined when e-mail is off (none is queued then). */
  jobs: JobQueue | undefined;
  /**
   * The secret of the call links, when prospects can book a time: BOOKING_SECRET, or the one the
   * store keeps; undefined when a BOOKING_SECRET too short turned booking off.
   */
  bookingSecret: string | undefined;
  /** The hosts' calendars (CALENDAR_FEEDS); undefined when none is set. */
  calendars: CalendarService | undefined;
  /** Tells the agency when bookings come in too fast (BOOKING_ALERT_PER_HOUR; undefined: off). */
  bookingAlert: BookingPaceAlert | undefined;
}

/** The services, opened on first use; refused while the store cannot be opened. */
export type OpenServices = () => Promise<Services>;

/** Whether e-mail is on: the prospect is e-mailed what a call's pages did (its queue of jobs is open). */
export const emailOn = (service: Pick<Services, 'jobs'>) => service.jobs !== undefined;

/**
 * A call page's answer that says whether e-mail is on (`mailed`), so that its words tell of no
 * e-mail we did not send (src/lib/content.ts answerSection). Only an answer given with the
 * services open can: 'unavailable' and the gate's refusals cannot, and say what is true either way.
 */
export type Mailed<Answer> = Answer & { mailed: boolean };
