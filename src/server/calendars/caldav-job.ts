/**
 * The job that writes a booked call into its host's own calendar over CalDAV (CALENDAR_WRITE): the
 * call as it stands when the job runs, whatever queued it (a booking, a move, a confirmation, a
 * cancel, a lapse, the desk's Write again), so that a move queued before the create has run leaves
 * one event, at the new time. Created only where none is (If-None-Match), replaced only over the
 * version last written (If-Match): when the host changed it meanwhile, the booking decides its time
 * and status, and the host's own words in its description are kept, from then on. A cancel deletes
 * it, or marks it CANCELLED (CALENDAR_WRITE_CANCEL); a move to another host moves it to their
 * calendar. While the calendar's server fails, the queue tries again with backoff; past
 * CALENDAR_WRITE_GIVE_UP_HOURS the write is given up (the desk and the log say so). One process
 * writes a call at a time (the store's lease on it), and the queue runs each job once.
 */
import { referenceOf } from '../../domain/staff.ts';
import type { CalendarWriteConfig } from '../config.ts';
import type { JobHandler, JobOutcome } from '../jobs/queue.ts';
import type { CalendarWrites, WrittenEvent } from '../store/calendar-writes.ts';
import type { StoredEnquiry } from '../store/types.ts';
import { caldav as sendCalDav, CalDavError, eventUrl, type CalDav } from './caldav.ts';

/** What a write job carries: when the first write it stands for was queued (for giving up). */
export interface CalendarWritePayload {
  queuedAt: number;
}

/** How the event's text is made (../mail/host-event.ts, handed by ../app.ts). */
export interface HostEvents {
  /** The call's event as it stands (the host's invitation, for a calendar). */
  eventOf(enquiry: StoredEnquiry): string;
  descriptionOf(text: string): string | undefined;
  withDescription(text: string, description: string | undefined): string;
}

export interface CalendarWriterOptions {
  config: CalendarWriteConfig;
  writes: CalendarWrites;
  events: HostEvents;
  /** CALENDAR_TIMEOUT_SECONDS: a request's time limit. */
  timeoutMs: number;
  caldav?: CalDav;
  now?: () => number;
  /** How long a process holds a call's write (2 minutes). */
  leaseMs?: number;
}

/** What is written (a cleared WrittenEvent: nothing). */
type Written = Omit<WrittenEvent, 'writtenAt'>;

const nothing: Written = {
  host: null,
  href: null,
  etag: null,
  sequence: null,
  description: null,
  hostDescription: null,
};

/** A write the calendar cannot take as configured; its message names no address. */
class WriteRefused extends Error {}

/** The handler of CALENDAR_WRITE_JOB, registered by ../app.ts. */
export function calendarWriteHandler(
  options: CalendarWriterOptions,
): JobHandler<CalendarWritePayload> {
  const now = options.now ?? Date.now;
  return async ({ enquiry, attempts, payload }) => {
    if (!enquiry?.call)
      return { skipped: 'no call', log: 'A calendar write of no call was dropped.' };
    const what = `The calendar event of call ${referenceOf(enquiry.id)}`;
    const held = await options.writes.claim(enquiry.id, now(), options.leaseMs ?? 120_000);
    if (!held)
      return {
        retry: 'another process is writing it',
        log: `${what} waits for another process's write.`,
      };
    try {
      const written = await new Writer(options, enquiry, held).write();
      await options.writes.save(enquiry.id, written, now());
      return {
        done: true,
        log: written.host
          ? `${what} is in host ${written.host}'s calendar.`
          : `${what} is in no host's calendar (${held.host ? 'deleted' : 'none to write'}).`,
      };
    } catch (error) {
      await options.writes.release(enquiry.id);
      return failed(what, error, attempts, now() - (payload?.queuedAt ?? now()), options.config);
    }
  };
}

/** A write that failed: tried again, or given up once it has failed for CALENDAR_WRITE_GIVE_UP_HOURS. */
function failed(
  what: string,
  error: unknown,
  attempts: number,
  age: number,
  config: CalendarWriteConfig,
): JobOutcome {
  // Only our own messages: another error's might quote an address.
  const reason =
    error instanceof CalDavError || error instanceof WriteRefused
      ? `the calendar: ${error.message}`
      : 'it could not be written';
  if (age >= config.giveUpMs)
    return {
      failed: reason,
      log: `${what} could not be written into its host's calendar for ${Math.round(age / 3_600_000)} hours: given up (${reason}). The desk offers Write again.`,
    };
  return { retry: reason, log: `${what} is not written yet (attempt ${attempts + 1}): ${reason}` };
}

const ok = (status: number) => status >= 200 && status < 300;

/** One write of one call: what its host's calendar should hold now, made so. */
class Writer {
  readonly #options: CalendarWriterOptions;
  readonly #enquiry: StoredEnquiry;
  #held: Written;

  constructor(options: CalendarWriterOptions, enquiry: StoredEnquiry, held: WrittenEvent) {
    this.#options = options;
    this.#enquiry = enquiry;
    this.#held = held;
  }

  async write(): Promise<Written> {
    const call = this.#enquiry.call!;
    const gone =
      call.cancelledAt !== null &&
      (!this.#held.href || (!call.lapsedAt && this.#options.config.onCancel === 'delete'));
    const held = this.#held;
    if (held.href && held.host && (held.host !== call.host || gone)) {
      await this.#delete(held.host, held.etag);
      this.#held = nothing;
    }
    // A host with no calendar in CALENDAR_WRITE has none written (a refused one's write fails, and says why).
    const { calendars, refusedHosts } = this.#options.config;
    const written = (host: string) =>
      calendars.some((one) => one.host === host) || refusedHosts.includes(host);
    if (gone || !call.host || !written(call.host)) return this.#held;
    return this.#put(call.host);
  }

  /** The calendar of `host`, or why none is written into. */
  #calendarOf(host: string): URL {
    const { config } = this.#options;
    const calendar = config.calendars.find((one) => one.host === host);
    if (calendar) return eventUrl(calendar.url, this.#enquiry.id);
    throw new WriteRefused(
      config.refusedHosts.includes(host)
        ? `host "${host}"'s address in CALENDAR_WRITE was refused`
        : `host "${host}" has no calendar in CALENDAR_WRITE`,
    );
  }

  #send(
    method: 'PUT' | 'GET' | 'DELETE',
    url: URL,
    extra: { body?: string; ifMatch?: string; ifAbsent?: boolean } = {},
  ) {
    const { caldav = sendCalDav, timeoutMs } = this.#options;
    return caldav({ method, url, timeoutMs, ...extra });
  }

  async #delete(host: string, etag: string | null) {
    const url = this.#calendarOf(host);
    let answer = await this.#send('DELETE', url, etag ? { ifMatch: etag } : {});
    // Changed by the host since: the call is cancelled or moved all the same.
    if (answer.status === 412) {
      const current = await this.#send('GET', url);
      if (current.status === 404) return;
      answer = await this.#send('DELETE', url, current.etag ? { ifMatch: current.etag } : {});
    }
    if (!ok(answer.status) && answer.status !== 404)
      throw new CalDavError(`it answered ${answer.status} to a delete`);
  }

  async #put(host: string): Promise<Written> {
    const url = this.#calendarOf(host);
    const { events } = this.#options;
    const held = this.#held.host === host ? this.#held : nothing;
    let hostDescription = held.hostDescription;
    const text = () => {
      const ours = events.eventOf(this.#enquiry);
      return hostDescription === null
        ? ours
        : events.withDescription(ours, hostDescription || undefined);
    };
    let body = text();
    let answer = await this.#send(
      'PUT',
      url,
      held.etag ? { body, ifMatch: held.etag } : { body, ifAbsent: true },
    );
    if (answer.status === 412 || answer.status === 404) {
      // Changed (or deleted) in the calendar since we wrote it, or written by an attempt whose
      // answer was lost: the booking decides, the host's own description is kept.
      const current = await this.#send('GET', url);
      if (current.status === 200) {
        const theirs = events.descriptionOf(current.body);
        if (held.description !== null && theirs !== held.description)
          hostDescription = theirs ?? '';
      } else if (current.status !== 404)
        throw new CalDavError(`it answered ${current.status} to a read`);
      body = text();
      answer = await this.#send(
        'PUT',
        url,
        current.status === 200 && current.etag
          ? { body, ifMatch: current.etag }
          : { body, ifAbsent: current.status === 404 },
      );
    }
    if (!ok(answer.status)) throw new CalDavError(`it answered ${answer.status} to a write`);
    return {
      host,
      href: url.pathname.slice(url.pathname.lastIndexOf('/') + 1),
      etag: answer.etag,
      sequence: this.#enquiry.call!.sequence,
      // '' for none written: null is never written (an earlier attempt's answer lost, say).
      description: events.descriptionOf(body) ?? '',
      hostDescription,
    };
  }
}
