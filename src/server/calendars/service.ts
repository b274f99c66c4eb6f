/**
 * The hosts' calendars, kept current: each feed of CALENDAR_FEEDS read when the server starts and
 * then every CALENDAR_REFRESH_MINUTES (conditionally, by one process when several share
 * PostgreSQL), its text kept in the store, and its busy times read from that copy. A host whose
 * calendar has not been read for CALENDAR_MAX_STALE_MINUTES, or never was, is offered nothing
 * (fail closed); the log says which host and why, never the feed's address. A new server (no fresh
 * copy in its store) has the booking pages wait for a feed's first read, FIRST_READ_WAIT_MS at most,
 * so that its first visitors are offered times; with fresh copies, they are answered from them at once.
 *
 * A feed's text is parsed and its recurrences expanded in a worker thread (./workers.ts), once for
 * each new text, and again only when the host's zone or the day (the offered window) changes: the
 * booking pages read busy times worked out ahead, and a feed, however slow or hostile, never holds
 * the main thread, nor another feed's read.
 */
import { createHash } from 'node:crypto';
import type { Availability } from '../../domain/booking.ts';
import type { CalendarBusy } from './busy.ts';
import { describeFeed, type CalendarsConfig } from '../config.ts';
import { log } from '../log.ts';
import type { CalendarCopies, FeedState } from '../store/calendar-copies.ts';
import { merge, type Busy } from './busy.ts';
import { fetchFeed, FeedError, type FeedRead, type FetchOptions } from './fetch-feed.ts';
import { reportCalendar } from './caldav-read.ts';
import { FeedReaders, workerMemoryMb, type ReadJob } from './workers.ts';

const DAY = 86_400_000;
/** The most days the booking pages offer (availability.yaml's daysAhead), and the days around them. */
const MOST_DAYS = 90 + 3;
/** How long a booking page waits for busy times not worked out ahead (a zone it had not asked). */
const READY_WAIT_MS = 3_000;
/**
 * How long after it starts a service with no fresh copy of a feed has the booking pages wait for
 * that feed's first read, rather than offer its host nothing: a new server's first visitor.
 */
export const FIRST_READ_WAIT_MS = 5_000;

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
  /**
   * Each host's zone (availability.yaml's), so that a feed is read for it from the start; else the
   * first booking page's availability says it.
   */
  timeZones?: ReadonlyMap<string, string>;
  /**
   * The workers that read the feeds (tests give their own): by default each feed's read within
   * CALENDAR_TIMEOUT_SECONDS, in a heap made for CALENDAR_MAX_BYTES (workerMemoryMb), and within
   * busy-times.ts's step budget; a CalDAV answer's XML made a feed (`join`) by the same workers.
   */
  readers?: Pick<FeedReaders, 'read' | 'join' | 'stop'>;
  /** FIRST_READ_WAIT_MS (tests give a shorter one). */
  firstReadWaitMs?: number;
  /**
   * READY_WAIT_MS (a test of what the pages are given, not of how long they wait, gives a longer
   * one: a worker working out busy times on a loaded, slow machine took over 3 s).
   */
  readyWaitMs?: number;
  /** The end of the site's own calls' UIDs: their events in a feed are not read (busy-times.ts). */
  ownUidSuffix?: string;
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

/** A window of a feed's busy times: the host's zone and an interval (epoch ms). */
type Window = ReadJob['windows'][number];

/** A feed's busy times, worked out from the text of `version` over a window. */
interface Worked extends Window {
  version: number;
  busy: Busy[];
}

/** A window's start and end as the booking pages ask for it at `now`. */
const offered = (now: number, days: number) => {
  const from = Math.floor(now / DAY) * DAY - DAY;
  return { from, to: from + days * DAY };
};

/** The intervals of `busy` (sorted, merged) that reach into [from, to). */
function within(busy: readonly Busy[], from: number, to: number): readonly Busy[] {
  const first = busy.findIndex((interval) => interval.end > from);
  if (first === -1) return [];
  let end = busy.length;
  while (end > first && busy[end - 1]!.start >= to) end -= 1;
  return first === 0 && end === busy.length ? busy : busy.slice(first, end);
}

const covers = (worked: Worked | undefined, window: Window) =>
  worked !== undefined &&
  worked.timeZone === window.timeZone &&
  worked.from <= window.from &&
  worked.to >= window.to;

export class CalendarService {
  readonly #config: CalendarsConfig;
  readonly #copies: CalendarCopies;
  readonly #now: () => number;
  readonly #fetch: NonNullable<CalendarServiceOptions['fetch']>;
  readonly #log: (line: string) => void;
  readonly #feeds: { host: string; url: URL; id: string }[];
  readonly #readers: Pick<FeedReaders, 'read' | 'join' | 'stop'>;
  #states = new Map<string, FeedState>();
  #texts = new Map<string, { version: number; text: string }>();
  /** Each feed's busy times as last worked out. */
  #worked = new Map<string, Worked>();
  /** A text this process read and saved, with its busy times: taken when the store gives it back. */
  #saved = new Map<string, { text: string; worked: Omit<Worked, 'version'>; version: number }>();
  /** The busy times being worked out, and those that could not be (not tried again as they were). */
  #working = new Map<string, { key: string; done: Promise<void> }>();
  #failed = new Map<string, { key: string; reason: string }>();
  /** What each host's busy times are wanted for: their zone, and the days offered (and around). */
  #wanted = new Map<string, { timeZone: string; days: number }>();
  readonly #timeZones: ReadonlyMap<string, string>;
  #reported = new Map<string, string>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #stopped = false;
  readonly #firstReadWaitMs: number;
  readonly #readyWaitMs: number;
  /** What ready() waits for while the service starts (#waitable): the copies loaded, the first reads. */
  #starting: { loaded: Promise<unknown>; read: Promise<unknown> } | undefined;

  constructor(options: CalendarServiceOptions) {
    this.#config = options.config;
    this.#copies = options.copies;
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? ((line) => log.warn(line));
    this.#feeds = options.config.feeds.map((feed) => ({ ...feed, id: feedId(feed.url) }));
    this.#timeZones = options.timeZones ?? new Map();
    this.#firstReadWaitMs = options.firstReadWaitMs ?? FIRST_READ_WAIT_MS;
    this.#readyWaitMs = options.readyWaitMs ?? READY_WAIT_MS;
    this.#readers =
      options.readers ??
      new FeedReaders({
        limits: {
          timeMs: options.config.timeoutMs,
          memoryMb: workerMemoryMb(options.config.maxBytes),
          maxSteps: undefined,
          ownUidSuffix: options.ownUidSuffix,
        },
        log: this.#log,
      });
    // A CalDAV answer's XML is read by the feeds' workers, never on this thread.
    this.#fetch =
      options.fetch ??
      ((url, read) =>
        read.caldav
          ? reportCalendar(url, read, this.#now(), { readers: this.#readers })
          : fetchFeed(url, read));
  }

  /** The hosts with a calendar (one whose address was refused included: it is never read). */
  get hosts(): ReadonlySet<string> {
    return new Set([...this.#feeds.map((feed) => feed.host), ...this.#config.refusedHosts]);
  }

  /**
   * Loads the copies the store keeps, then reads the feeds due now and the copies again; again
   * every minute (not holding the process). Meanwhile, for FIRST_READ_WAIT_MS at most, ready()
   * waits for what a host without a fresh copy needs (see #firstReads).
   */
  async start() {
    const loaded = this.#reload();
    const read = loaded.then(() => this.tick());
    this.#starting = this.#waitable(loaded, read);
    await read;
    if (this.#stopped) return;
    this.#timer = setInterval(
      () => void this.tick().catch((error) => this.#log(`Calendars: ${String(error)}`)),
      Math.min(this.#config.refreshMs, 60_000),
    );
    this.#timer.unref();
  }

  /**
   * The start's load of the copies and its first reads as ready() waits for them: until they are
   * done or FIRST_READ_WAIT_MS have passed, never failing (a failure is start()'s to report).
   */
  #waitable(loaded: Promise<unknown>, read: Promise<unknown>) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise((resolve) => {
      timer = setTimeout(resolve, this.#firstReadWaitMs);
      timer.unref();
    });
    const until = (work: Promise<unknown>) => Promise.race([work.catch(() => {}), bound]);
    const starting = { loaded: until(loaded), read: until(read) };
    void starting.read.then(() => {
      clearTimeout(timer);
      if (this.#starting === starting) this.#starting = undefined;
    });
    return starting;
  }

  /** Stops reading, and the workers (a test's end, the server's). */
  async stop() {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#readers.stop();
  }

  /** Takes the copies as the store keeps them, reading no feed (the staff CLI's look at them). */
  loadCopies() {
    return this.#reload();
  }

  /**
   * Reads the feeds that are due (those no other process is reading), each on its own, then every
   * copy, and works out the busy times that a new text, zone or day calls for.
   */
  async tick() {
    // Stopped, the store may be closed next: a start's first reads, due after its copies loaded,
    // found it closed once (PostgreSQL's pool ended) and failed unhandled.
    if (this.#stopped) return;
    await Promise.all(this.#feeds.map((feed) => this.#read(feed)));
    await this.#reload();
    await Promise.all(this.#work(this.#now()).map(({ done }) => done));
  }

  async #read(feed: { host: string; url: URL; id: string; caldav?: boolean }) {
    // A read counts from when it began: were it recorded when it ended, the next tick, a refresh
    // later, would find it not yet due, and the feed would be read a minute late each time.
    const now = this.#now();
    const { refreshMs, timeoutMs, maxBytes } = this.#config;
    // The lease covers the fetch and the worker's read (each within CALENDAR_TIMEOUT_SECONDS),
    // which may wait for other feeds' first.
    const lease = timeoutMs * 6;
    const claim = await this.#copies.claimRead(feed.id, feed.host, now, refreshMs, lease);
    if (!claim) return;
    try {
      const read = await this.#fetch(feed.url, {
        ...(feed.caldav && { caldav: true }),
        etag: claim.etag ?? undefined,
        lastModified: claim.lastModified ?? undefined,
        timeoutMs,
        maxBytes,
      });
      if (read.status === 'modified') {
        // Read now, in a worker, so that a text that is not a calendar (a sign-in page, a feed too
        // big to expand, one that runs out its time or memory) never replaces the last good copy;
        // and its busy times are kept, so that the text is parsed this once.
        const window = this.#windowOf(feed.host, now);
        const reading = await this.#readers.read(read.body, [window]);
        if (!reading.ok) throw new FeedError(reading.reason);
        await this.#copies.saveRead(
          feed.id,
          { body: read.body, etag: read.etag ?? null, lastModified: read.lastModified ?? null },
          now,
        );
        this.#saved.set(feed.id, {
          text: read.body,
          worked: { ...window, busy: reading.windows[0]!.busy },
          // What the store's version is now if no other process wrote since this one last looked.
          version: (this.#states.get(feed.id)?.version ?? 0) + 1,
        });
      } else await this.#copies.saveRead(feed.id, null, now);
      if (this.#reported.has(feed.id)) {
        this.#reported.delete(feed.id);
        this.#log(`The calendar of host "${feed.host}" (${describeFeed(feed.url)}) is read again.`);
      }
    } catch (error) {
      const reason =
        error instanceof FeedError || error instanceof Error
          ? error.message.slice(0, 200)
          : 'it could not be read';
      await this.#copies.saveFailure(feed.id, reason, now);
      this.#report(feed, reason);
    }
  }

  /** Says, once, why a host's feed could not be read: its host, and no more of its address. */
  #report(feed: { host: string; url: URL; id: string }, reason: string) {
    if (this.#reported.get(feed.id) === reason) return;
    this.#reported.set(feed.id, reason);
    this.#log(
      `The calendar of host "${feed.host}" (${describeFeed(feed.url)}) could not be read: ${reason}.`,
    );
  }

  /** The copies' states, and the text of each that changed (with its busy times, if read here). */
  async #reload() {
    const states = await this.#copies.states();
    this.#states = new Map(states.map((state) => [state.feedId, state]));
    for (const feed of this.#feeds) {
      const state = this.#states.get(feed.id);
      if (!state || state.version === 0 || this.#texts.get(feed.id)?.version === state.version)
        continue;
      const saved = this.#saved.get(feed.id);
      this.#saved.delete(feed.id);
      // The version this process's own save made: the text is the one it holds (a feed of some
      // megabytes is not read back). Any other: another process's, read from the store.
      const own = saved?.version === state.version;
      const text = own ? saved.text : await this.#copies.body(feed.id);
      if (text === undefined) continue;
      this.#texts.set(feed.id, { version: state.version, text });
      if (own) this.#worked.set(feed.id, { ...saved.worked, version: state.version });
    }
  }

  /** The window a host's feed is read over at `now`: the offered days, and the next day's too. */
  #windowOf(host: string, now: number): Window {
    const wanted = this.#wanted.get(host);
    const { from, to } = offered(now, wanted?.days ?? MOST_DAYS);
    return {
      timeZone: wanted?.timeZone ?? this.#timeZones.get(host) ?? 'UTC',
      from,
      to: to + DAY,
    };
  }

  /** Notes what the booking pages ask for: each host's zone, and the days they offer. */
  #want(availability: Availability) {
    for (const host of availability.hosts)
      this.#wanted.set(host.id, {
        timeZone: host.timeZone ?? availability.timeZone,
        days: availability.daysAhead + 3,
      });
  }

  /**
   * Works out, in the workers, the busy times that are not worked out for the copies' texts, the
   * hosts' zones and the window of `now` and of the day after; `needed`: those of `now` are not.
   */
  #work(now: number): { needed: boolean; done: Promise<void> }[] {
    const work: { needed: boolean; done: Promise<void> }[] = [];
    for (const feed of this.#feeds) {
      const text = this.#texts.get(feed.id);
      if (!text) continue;
      const window = this.#windowOf(feed.host, now);
      const worked = this.#worked.get(feed.id);
      if (worked?.version === text.version && covers(worked, window)) continue;
      const today = { ...window, to: window.to - DAY };
      const needed = !covers(worked, today);
      const key = `${text.version} ${window.timeZone} ${window.from} ${window.to}`;
      const working = this.#working.get(feed.id);
      if (working?.key === key) {
        work.push({ needed, done: working.done });
        continue;
      }
      if (this.#failed.get(feed.id)?.key === key) continue;
      const done = this.#readers.read(text.text, [window]).then((reading) => {
        if (this.#working.get(feed.id)?.key === key) this.#working.delete(feed.id);
        if (reading.ok) {
          this.#failed.delete(feed.id);
          this.#worked.set(feed.id, {
            ...window,
            version: text.version,
            busy: reading.windows[0]!.busy,
          });
          return;
        }
        // A copy read before can fail here only on a loaded machine, near its limits: its host is
        // offered nothing until it is read again (the next text, zone or day), or of an older text.
        this.#failed.set(feed.id, { key, reason: reading.reason });
        if ((this.#worked.get(feed.id)?.version ?? 0) < text.version) this.#worked.delete(feed.id);
        this.#report(feed, reading.reason);
      });
      this.#working.set(feed.id, { key, done });
      work.push({ needed, done });
    }
    return work;
  }

  /**
   * Waits (a few seconds at most) for the busy times `busy()` is to read for `availability`, when
   * they were not worked out ahead: the first booking page of a zone not known, say.
   */
  async ready(availability: Availability, now = this.#now()): Promise<void> {
    this.#want(availability);
    await this.#firstReads(now);
    const needed = this.#work(now).filter((work) => work.needed);
    if (needed.length === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(needed.map(({ done }) => done)),
      new Promise((resolve) => (timer = setTimeout(resolve, this.#readyWaitMs))),
    ]);
    clearTimeout(timer);
  }

  /**
   * While the service starts: waits for the first reads (FIRST_READ_WAIT_MS after start at most)
   * if a feed has no fresh copy in the store, whose host would otherwise be offered nothing; with
   * every copy fresh, the pages answer from the copies at once.
   */
  async #firstReads(now: number) {
    const starting = this.#starting;
    if (!starting) return;
    await starting.loaded;
    if (this.#feeds.some((feed) => !this.#fresh(this.#states.get(feed.id), now)))
      await starting.read;
  }

  /** Whether a feed's copy was read within CALENDAR_MAX_STALE_MINUTES: its busy times count. */
  #fresh(state: FeedState | undefined, now: number) {
    return !!state?.fetchedAt && now - state.fetchedAt <= this.#config.maxStaleMs;
  }

  /**
   * Each host's busy times over the offered window, from the copies as last loaded and worked out
   * (never parsed here: see ready()): 'unknown' for a host with a feed not read within
   * CALENDAR_MAX_STALE_MINUTES (or never), or whose busy times are not worked out for this window
   * and zone; none for a host with no calendar.
   */
  busy(availability: Availability, now = this.#now()): CalendarBusy {
    this.#warnOfUnknownHosts(availability);
    this.#want(availability);
    const result = new Map<string, readonly Busy[] | 'unknown'>(
      this.#config.refusedHosts.map((host) => [host, 'unknown']),
    );
    const { from, to } = offered(now, availability.daysAhead + 3);
    let missing = false;
    for (const feed of this.#feeds) {
      if (result.get(feed.host) === 'unknown') continue;
      if (!this.#fresh(this.#states.get(feed.id), now)) {
        result.set(feed.host, 'unknown');
        continue;
      }
      // All-day and floating times are read in the host's own zone.
      const timeZone =
        availability.hosts.find((host) => host.id === feed.host)?.timeZone ?? availability.timeZone;
      const worked = this.#worked.get(feed.id);
      if (!covers(worked, { timeZone, from, to })) {
        missing = true;
        result.set(feed.host, 'unknown');
        continue;
      }
      const busy = within(worked!.busy, from, to);
      const held = result.get(feed.host);
      result.set(feed.host, held ? merge([...(held as Busy[]), ...busy]) : busy);
    }
    // Worked out for the next request.
    if (missing) this.#work(now);
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
        error:
          states.find((state) => state?.error)?.error ??
          this.#feeds
            .filter((feed) => feed.host === host)
            .map((feed) => this.#failed.get(feed.id)?.reason)
            .find(Boolean) ??
          null,
      };
    });
  }
}
