/**
 * The hosts' calendars, kept current: each feed of CALENDAR_FEEDS read when the server starts and
 * then every CALENDAR_REFRESH_MINUTES (conditionally, by one process when several share
 * PostgreSQL), its text kept in the store, and its busy times read from that copy. A host whose
 * calendar has not been read for CALENDAR_MAX_STALE_MINUTES, or never was, is offered nothing
 * (fail closed); the log says which host and why, never the feed's address.
 */
import { createHash } from 'node:crypto';
import type { Availability } from '../../domain/booking.ts';
import type { CalendarBusy } from '../booking/free-times.ts';
import { describeFeed, type CalendarsConfig } from '../config.ts';
import type { CalendarCopies, FeedState } from '../store/calendar-copies.ts';
import { merge, type Busy } from './busy.ts';
import { fetchFeed, FeedError, type FeedRead, type FetchOptions } from './fetch-feed.ts';

const DAY = 86_400_000;

/** A feed's id in the store: a hash of its address, which is a secret. */
export const feedId = (url: URL) =>
  createHash('sha256').update(url.href).digest('hex').slice(0, 24);

export interface CalendarServiceOptions {
  config: CalendarsConfig;
  copies: CalendarCopies;
  /** The clock (tests give their own). */
  now?: () => number;
  fetch?: (url: URL, options: FetchOptions) => Promise<FeedRead>;
  log?: (line: string) => void;
}

/** How fresh a host's calendar is, for /healthz: no address. */
export interface HostCalendarHealth {
  host: string;
  /** Whether its times are offered (every feed read within CALENDAR_MAX_STALE_MINUTES). */
  fresh: boolean;
  /** Minutes since the oldest of its feeds was last read; null: one never was. */
  minutesSinceRead: number | null;
  /** Why a read last failed, when it did. */
  error: string | null;
}

type Parsed = { key: string; busy: Busy[] };

export class CalendarService {
  readonly #config: CalendarsConfig;
  readonly #copies: CalendarCopies;
  readonly #now: () => number;
  readonly #fetch: NonNullable<CalendarServiceOptions['fetch']>;
  readonly #log: (line: string) => void;
  readonly #feeds: { host: string; url: URL; id: string }[];
  #states = new Map<string, FeedState>();
  #texts = new Map<string, { version: number; text: string }>();
  #parsed = new Map<string, Parsed>();
  #reported = new Map<string, string>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #reader: typeof import('./busy-times.ts') | undefined;

  constructor(options: CalendarServiceOptions) {
    this.#config = options.config;
    this.#copies = options.copies;
    this.#now = options.now ?? Date.now;
    this.#fetch = options.fetch ?? fetchFeed;
    this.#log = options.log ?? ((line) => console.warn(line));
    this.#feeds = options.config.feeds.map((feed) => ({ ...feed, id: feedId(feed.url) }));
  }

  /** The hosts with a calendar (one whose address was refused included: it is never read). */
  get hosts(): ReadonlySet<string> {
    return new Set([...this.#feeds.map((feed) => feed.host), ...this.#config.refusedHosts]);
  }

  /** Reads the feeds due now and then the copies; again every minute (not holding the process). */
  async start() {
    await this.tick();
    this.#timer = setInterval(
      () => void this.tick().catch((error) => this.#log(`Calendars: ${String(error)}`)),
      Math.min(this.#config.refreshMs, 60_000),
    );
    this.#timer.unref();
  }

  stop() {
    clearInterval(this.#timer);
  }

  /** Takes the copies as the store keeps them, reading no feed (the staff CLI's look at them). */
  loadCopies() {
    return this.#reload();
  }

  /** Reads the feeds that are due (those no other process is reading), then every copy. */
  async tick() {
    await Promise.all(this.#feeds.map((feed) => this.#read(feed)));
    await this.#reload();
  }

  async #read(feed: { host: string; url: URL; id: string }) {
    const now = this.#now();
    const { refreshMs, timeoutMs, maxBytes } = this.#config;
    const claim = await this.#copies.claimRead(feed.id, feed.host, now, refreshMs, timeoutMs * 3);
    if (!claim) return;
    try {
      const read = await this.#fetch(feed.url, {
        etag: claim.etag ?? undefined,
        lastModified: claim.lastModified ?? undefined,
        timeoutMs,
        maxBytes,
      });
      if (read.status === 'modified') {
        // Read once now, so that a text that is not a calendar (a sign-in page, a feed too big to
        // expand) never replaces the last good copy.
        const reader = await this.#busyReader();
        reader.readBusyTimes(read.body, { timeZone: 'UTC', from: now, to: now + 92 * DAY });
        await this.#copies.saveRead(
          feed.id,
          { body: read.body, etag: read.etag ?? null, lastModified: read.lastModified ?? null },
          this.#now(),
        );
      } else await this.#copies.saveRead(feed.id, null, this.#now());
      if (this.#reported.has(feed.id)) {
        this.#reported.delete(feed.id);
        this.#log(`The calendar of host "${feed.host}" (${describeFeed(feed.url)}) is read again.`);
      }
    } catch (error) {
      const reason =
        error instanceof FeedError || error instanceof Error
          ? error.message.slice(0, 200)
          : 'it could not be read';
      await this.#copies.saveFailure(feed.id, reason, this.#now());
      if (this.#reported.get(feed.id) !== reason) {
        this.#reported.set(feed.id, reason);
        this.#log(
          `The calendar of host "${feed.host}" (${describeFeed(feed.url)}) could not be read: ${reason}.`,
        );
      }
    }
  }

  async #busyReader() {
    return (this.#reader ??= await import('./busy-times.ts'));
  }

  /** The copies' states, and the text of each that changed. */
  async #reload() {
    const states = await this.#copies.states();
    this.#states = new Map(states.map((state) => [state.feedId, state]));
    for (const feed of this.#feeds) {
      const state = this.#states.get(feed.id);
      if (!state || state.version === 0 || this.#texts.get(feed.id)?.version === state.version)
        continue;
      const text = await this.#copies.body(feed.id);
      if (text !== undefined) this.#texts.set(feed.id, { version: state.version, text });
    }
    await this.#busyReader();
  }

  /**
   * Each host's busy times over the offered window, from the copies as last loaded: 'unknown' for
   * a host with a feed not read within CALENDAR_MAX_STALE_MINUTES (or never); none for a host
   * with no calendar.
   */
  busy(availability: Availability, now = this.#now()): CalendarBusy {
    this.#warnOfUnknownHosts(availability);
    const result = new Map<string, readonly Busy[] | 'unknown'>(
      this.#config.refusedHosts.map((host) => [host, 'unknown']),
    );
    const day = Math.floor(now / DAY);
    const from = day * DAY - DAY;
    const to = from + (availability.daysAhead + 3) * DAY;
    for (const feed of this.#feeds) {
      if (result.get(feed.host) === 'unknown') continue;
      const state = this.#states.get(feed.id);
      const text = this.#texts.get(feed.id);
      if (
        !state?.fetchedAt ||
        now - state.fetchedAt > this.#config.maxStaleMs ||
        !text ||
        !this.#reader
      ) {
        result.set(feed.host, 'unknown');
        continue;
      }
      // All-day and floating times are read in the host's own zone.
      const timeZone =
        availability.hosts.find((host) => host.id === feed.host)?.timeZone ?? availability.timeZone;
      const key = `${text.version} ${timeZone} ${from} ${to}`;
      let parsed = this.#parsed.get(feed.id);
      if (parsed?.key !== key) {
        try {
          const { busy } = this.#reader.readBusyTimes(text.text, {
            timeZone,
            from,
            to,
          });
          parsed = { key, busy };
        } catch {
          result.set(feed.host, 'unknown');
          continue;
        }
        this.#parsed.set(feed.id, parsed);
      }
      const held = result.get(feed.host);
      result.set(feed.host, held ? merge([...(held as Busy[]), ...parsed.busy]) : parsed.busy);
    }
    return result;
  }

  #warned = false;
  #warnOfUnknownHosts(availability: Availability) {
    if (this.#warned) return;
    this.#warned = true;
    const known = new Set(availability.hosts.map((host) => host.id));
    for (const host of this.hosts)
      if (!known.has(host))
        this.#log(
          `CALENDAR_FEEDS names host "${host}", who is not among the hosts of availability.yaml: that calendar is not used.`,
        );
  }

  /** Each host's calendar freshness, for /healthz. */
  health(now = this.#now()): HostCalendarHealth[] {
    return [...this.hosts].map((host) => {
      const states = this.#feeds
        .filter((feed) => feed.host === host)
        .map((feed) => this.#states.get(feed.id));
      if (this.#config.refusedHosts.includes(host))
        return {
          host,
          fresh: false,
          minutesSinceRead: null,
          error: 'its address in CALENDAR_FEEDS was refused',
        };
      const reads = states.map((state) => state?.fetchedAt ?? null);
      const oldest = reads.includes(null) ? null : Math.min(...(reads as number[]));
      return {
        host,
        fresh: oldest !== null && now - oldest <= this.#config.maxStaleMs,
        minutesSinceRead: oldest === null ? null : Math.floor((now - oldest) / 60_000),
        error: states.find((state) => state?.error)?.error ?? null,
      };
    });
  }
}
