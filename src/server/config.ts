/**
 * The server's configuration, read once from the environment: this is the only file that reads
 * process.env (serverConfig); readConfig(env) makes one from any environment, for tests. Every
 * variable and its default is listed in the README's configuration section.
 */

import { dirname, join, resolve } from 'node:path';
import { isValidEmail } from '../domain/forms.ts';

/**
 * How many calls one e-mail address, and one client, may have booked ahead (not cancelled) at a
 * time, unless BOOKING_CAP says otherwise: room for a second call, too little for one visitor to
 * take every free time.
 */
export const DEFAULT_BOOKING_CAP = 2;

/**
 * How many calls one wider network (an IPv4 /24, an IPv6 /48: ./networks.ts) may have booked ahead,
 * unless BOOKING_NETWORK_CAP says otherwise: an office's few colleagues, not one person with a
 * block of addresses holding every free time.
 */
export const DEFAULT_NETWORK_CAP = 6;

/**
 * The share of the offered window's times that calls not yet confirmed may hold, unless
 * BOOKING_UNCONFIRMED_SHARE says otherwise: a quarter, far more than real prospects book between
 * two confirmations, too little for unconfirmed bookings to empty the calendar.
 */
export const DEFAULT_UNCONFIRMED_SHARE = 0.25;

/**
 * How long a prospect has to confirm a call they booked, unless BOOKING_CONFIRM_MINUTES says
 * otherwise: real prospects confirm within minutes; a call left unconfirmed longer is released, so
 * that bookings nobody confirms hold a time for two hours, not until the call.
 */
export const DEFAULT_CONFIRM_MINUTES = 120;

/** How often each process looks for calls not confirmed in time (../booking/lapse.ts). */
export const LAPSE_SWEEP_MS = 60_000;

/**
 * More calls than this booked within an hour, unless BOOKING_ALERT_PER_HOUR says otherwise, and
 * the agency is told (a log line and an e-mail): bookings are coming in faster than people book.
 */
export const DEFAULT_BOOKING_ALERT_PER_HOUR = 10;

/** At most one alert about the pace of bookings within this long, across processes. */
export const BOOKING_ALERT_QUIET_MS = 6 * 3_600_000;

/**
 * How long a process's claim on jobs holds (JOBS_LEASE_MS): longer than running a batch can take
 * (the SMTP timeouts in ./mail/smtp.ts bound each e-mail), short enough that jobs a process had
 * claimed when it died are taken over by another within minutes.
 */
export const JOBS_LEASE_MS = 5 * 60_000;

/** Jobs claimed at a time, run together (e-mails over the SMTP connections of the pool). */
export const JOBS_CLAIM_BATCH = 10;

/** How often the queue of jobs looks for work due, new or to retry (JOBS_POLL_MS). */
export const JOBS_POLL_MS = 1000;

/** The first retry's delay after a failed attempt (JOBS_RETRY_BASE_MS), doubling up to JOBS_RETRY_MAX_MS. */
export const JOBS_RETRY_BASE_MS = 5000;
export const JOBS_RETRY_MAX_MS = 15 * 60_000;

/** Editing and publishing from the browser (EDITING, EDITING_DIR; docs/publishing.md). */
export interface EditingConfig {
  /** EDITING=on: the editor at /keystatic and /staff/publish are served. */
  enabled: boolean;
  /**
   * EDITING_DIR: the folder of the draft (`draft/`, a working copy of the site's content that the
   * editor writes), the releases (`releases/<id>/` and the `current` link) and the builds under
   * way (`builds/`); a folder `editing` beside the SQLite store's by default. 0700.
   */
  editingDir: string;
  /** `<editingDir>/draft`: the editor reads and writes `src/content/**` and `src/assets/**` there. */
  draftDir: string;
  /** The git repository `npm run serve` runs from (its working folder): each publish is a commit there. */
  repoDir: string;
  /** How many releases are kept for a roll back (EDITING_RELEASES_KEPT, 12; 10 at least). */
  releasesKept: number;
  /** How often a process looks in the store for a newer live release (EDITING_POLL_MS, 5000). */
  pollMs: number;
  /**
   * The build a publish runs in its checkout (PUBLISH_BUILD_COMMAND, a command line): `astro build`
   * unless set. Its output is the checkout's `dist/`.
   */
  buildCommand: string[] | undefined;
  /**
   * PUBLISH_BUILD_PRIORITY: `low` (the default), the machine's lowest (`nice -n 19`, `ionice -c3`), so
   * that visitors keep the CPU and the disk; `normal`, the server's own, where the machine is busy with
   * other work of the same priority (a build machine, `npm test`) and the lowest would starve the build.
   */
  buildPriority: BuildPriority;
  /**
   * How long a publish's or a preview's build may run before it is stopped and said to have failed
   * (PUBLISH_BUILD_MINUTES, 30): a build that never ends would hold every later publish.
   */
  buildMinutes: number;
}

/** A build's CPU and I/O priority (PUBLISH_BUILD_PRIORITY): the machine's lowest, or the server's own. */
export type BuildPriority = 'low' | 'normal';

/** The queue of jobs' settings (./jobs/queue.ts), in ms. */
export interface JobsConfig {
  /** JOBS_POLL_MS: how often it looks for jobs due, new or to retry. */
  pollMs: number;
  /** JOBS_RETRY_BASE_MS: the first retry's delay after a failed attempt, doubling up to JOBS_RETRY_MAX_MS. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** JOBS_LEASE_MS: how long a process's claim on jobs holds, should it die while running them. */
  leaseMs: number;
}

/** The queue's settings by their names before the outbox was called the queue of jobs: still read. */
const OLD_JOBS_NAMES = {
  JOBS_POLL_MS: 'OUTBOX_POLL_MS',
  JOBS_RETRY_BASE_MS: 'OUTBOX_RETRY_BASE_MS',
  JOBS_RETRY_MAX_MS: 'OUTBOX_RETRY_MAX_MS',
  JOBS_LEASE_MS: 'OUTBOX_LEASE_MS',
} as const;

export interface ServerConfig {
  /** Where `npm start` listens (HOST, PORT) and the build it serves (DIST_DIR): ./main.ts. */
  listen: { host: string; port: number };
  distDir: string;
  /** The SQLite file of the enquiry store, when there is no DATABASE_URL. */
  databasePath: string;
  /** A PostgreSQL URL (postgres://user:pass@host:5432/db): the store that several processes share. */
  databaseUrl: string | undefined;
  /** BACKUP_KEEP (14): how many of its own backups `npm run backup -- --dir DIR` keeps there. */
  backupKeep: number;
  /** SMTP connection URL (smtp://user:pass@host:587); without it enquiries are stored, not mailed. */
  smtpUrl: string | undefined;
  mailTo: string | undefined;
  mailFrom: string | undefined;
  /** The queue of jobs that sends the e-mails (and runs any other durable work). */
  jobs: JobsConfig;
  /** The forms' limit per network (`max`), and the staff desk's per member (`staffMax`), in `windowMs`. */
  rateLimit: { enabled: boolean; max: number; staffMax: number; windowMs: number };
  /** Socket addresses of proxies whose X-Forwarded-For and X-Forwarded-Proto are believed. */
  trustedProxies: string[];
  recaptcha: { secret: string | undefined; verifyUrl: string };
  /** Public origins whose forms may post here, besides the origin a request arrives at. */
  allowedOrigins: string[];
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /**
   * BOOKING_SECRET signs the cancel links of booked calls (32 characters or more); unset, a key made
   * once and kept in `keysDir` does (./private-files.ts), so that booking works on a fresh clone.
   * One set but too short turns booking off: prospects can still ask for a call.
   */
  bookingSecret: string | undefined;
  /**
   * STAFF_SECRET signs the staff's sign-in links (32 characters or more); unset, a key made once and
   * kept in `keysDir` does. One set but too short keeps the server from starting.
   */
  staffSecret: string | undefined;
  /**
   * KEYS_DIR: the folder of the key files that stand in for BOOKING_SECRET and STAFF_SECRET (0700,
   * each file 0600), never the store: `keys/` beside the SQLite file (ENQUIRY_DB), also with
   * PostgreSQL. Processes on several machines cannot share it: set both secrets there.
   */
  keysDir: string;
  /**
   * BOOKING_CAP: how many calls one e-mail address, and one client, may have booked ahead at a time
   * (2; `off` for no cap). A booking beyond it is refused, and nothing is stored.
   */
  bookingCap: number;
  /**
   * BOOKING_NETWORK_CAP: how many calls one wider network (an IPv4 /24, an IPv6 /48) may have booked
   * ahead at a time (6; `off` for no cap, as is BOOKING_CAP=off).
   */
  networkCap: number;
  /**
   * BOOKING_UNCONFIRMED_SHARE: the share of the offered window's times (every host's slots over the
   * days ahead) that calls not yet confirmed by their prospect may hold (0.25); undefined (`off`,
   * or BOOKING_CAP=off) for no such cap.
   */
  unconfirmedShare: number | undefined;
  /**
   * BOOKING_CONFIRM_MINUTES, in ms: a call its prospect has not confirmed this long after its
   * confirm link was e-mailed (120 minutes) is released, its time offered again, and the prospect told.
   */
  confirmMs: number;
  /** Who may use the staff desk besides the hosts (STAFF_EMAILS, comma-separated). */
  staffEmails: string[];
  /**
   * STAFF_EDITORS (comma-separated addresses): the members who may edit the content and publish
   * it (/keystatic, /staff/publish). Each is a member of staff, listed in STAFF_EMAILS or not.
   */
  staffEditors: string[];
  /** Editing and publishing from the browser (EDITING=on): ./releases/, docs/publishing.md. */
  editing: EditingConfig;
  /** A staff session ends after this long idle (STAFF_SESSION_IDLE_MINUTES, default 120), in ms. */
  staffIdleMs: number;
  /**
   * BOOKING_ALERT_PER_HOUR: more calls than this booked within an hour (10) and the agency is told,
   * at most once every 6 hours; undefined (`off`) for no alert.
   */
  bookingAlertPerHour: number | undefined;
  /**
   * The site's public origin (SITE_URL): for links in e-mails (else the site of astro.config.mjs),
   * the same-origin check of posts (else the address a request arrived at), and HSTS when https.
   */
  siteUrl: string | undefined;
  connections: ConnectionLimits;
  /** LOG_FORMAT: `json` writes one JSON object a line (./log.ts); anything else, readable lines. */
  logFormat: 'json' | 'text';
  /**
   * STOP_GRACE_MS (10 s): on SIGTERM, how long the requests in hand have to be answered before
   * their connections are cut (./main.ts). Within a systemd unit's TimeoutStopSec.
   */
  stopGraceMs: number;
  /**
   * STOP_DRAIN_MS (0): on SIGTERM, how long /healthz answers 503 while the process still serves,
   * before it stops taking connections: longer than a balancer takes to notice (Caddy of
   * deploy/Caddyfile asks every second), for a restart of one of several processes that no request
   * meets closed.
   */
  stopDrainMs: number;
  vitals: VitalsConfig;
  calendars: CalendarsConfig;
  calendarWrite: CalendarWriteConfig;
  /**
   * What the environment says that the server should say back when it starts, a line each: a
   * setting given by its old name (OUTBOX_POLL_MS for JOBS_POLL_MS, …), which still works.
   */
  warnings: string[];
  /**
   * The settings the server cannot start with, a line each saying what to set (./main.ts refuses
   * to start on them; the commands go on, and refuse a DATABASE_URL themselves): a PORT that is
   * no port, a SITE_URL, an ALLOWED_ORIGINS entry, a DATABASE_URL or an SMTP_URL that is not an
   * address of its kind.
   */
  invalid: string[];
}

/** The hosts' calendars (src/server/calendars/): their feeds' secret addresses and how they are read. */
export interface CalendarsConfig {
  /**
   * CALENDAR_FEEDS: `HOST_ID=URL` pairs, whitespace-separated (a host may have several). https only,
   * but for loopback addresses. Secrets: never logged, stored or shown (see describeFeed).
   */
  feeds: { host: string; url: URL; caldav?: boolean }[];
  /** What was wrong with CALENDAR_FEEDS, an entry at a time, without its address. */
  problems: string[];
  /** Hosts named by a refused entry: their calendar cannot be read, so they are offered nothing. */
  refusedHosts: string[];
  /** CALENDAR_REFRESH_MINUTES (5): how often each feed is read again. */
  refreshMs: number;
  /** CALENDAR_MAX_STALE_MINUTES (60): past this without a good read, a host is offered nothing. */
  maxStaleMs: number;
  /** CALENDAR_TIMEOUT_SECONDS (10) and CALENDAR_MAX_BYTES (5 MB): a read's limits. */
  timeoutMs: number;
  maxBytes: number;
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A feed's address as logs and messages may show it: its scheme and host, never its path. */
export const describeFeed = (url: URL) => `${url.protocol}//${url.host}/…`;

/**
 * CALENDAR_FEEDS read: the feeds, and what was refused (named by its place and host, not its URL).
 * CALENDAR_WRITE is read by the same rules (`name`), but may carry its user name and password.
 */
export function readCalendarFeeds(
  value: string | undefined,
  {
    name = 'CALENDAR_FEEDS',
    credentials = false,
    caldav = [],
  }: { name?: string; credentials?: boolean; caldav?: CalendarWriteConfig['calendars'] } = {},
) {
  const feeds: CalendarsConfig['feeds'] = [];
  const problems: string[] = [];
  const refusedHosts = new Set<string>();
  (value ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .forEach((entry, index) => {
      const equals = entry.indexOf('=');
      const host = equals > 0 ? entry.slice(0, equals) : '';
      const place = `${name} entry ${index + 1}${host ? ` (host "${host.slice(0, 30)}")` : ''}`;
      if (!/^[a-z0-9-]{2,30}$/.test(host)) {
        problems.push(`${place}: must be HOST_ID=URL, with the host's id from availability.yaml`);
        return;
      }
      // HOST=caldav: the host's calendar of CALENDAR_WRITE, read through CalDAV (./calendars/caldav-read.ts).
      if (entry.slice(equals + 1) === 'caldav') {
        const calendar = caldav.find((one) => one.host === host);
        if (calendar) feeds.push({ host, url: calendar.url, caldav: true });
        else {
          problems.push(`${place}: caldav, but CALENDAR_WRITE gives no calendar of this host`);
          refusedHosts.add(host);
        }
        return;
      }
      let url: URL;
      try {
        url = new URL(entry.slice(equals + 1));
      } catch {
        problems.push(`${place}: the address is not a URL`);
        refusedHosts.add(host);
        return;
      }
      // webcal:// is how calendars hand out a feed for subscribing: the same address over https.
      if (url.protocol === 'webcal:') url = new URL(`https:${url.href.slice('webcal:'.length)}`);
      const loopback = loopbackHosts.has(url.hostname) || url.hostname === '[::1]';
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
        problems.push(`${place}: must be an https address (${url.protocol} is not)`);
        refusedHosts.add(host);
        return;
      }
      if (!credentials && (url.username || url.password)) {
        problems.push(`${place}: must not carry a user name or password`);
        refusedHosts.add(host);
        return;
      }
      feeds.push({ host, url });
    });
  return { feeds, problems, refusedHosts: [...refusedHosts] };
}

/** The hosts' calendars the calls are written into (src/server/calendars/caldav-*.ts). */
export interface CalendarWriteConfig {
  /**
   * CALENDAR_WRITE: `HOST_ID=URL` pairs of CalDAV calendar collections, the same rules as
   * CALENDAR_FEEDS's, with the user name and password in the URL. Secrets: never logged or shown.
   */
  calendars: { host: string; url: URL }[];
  problems: string[];
  refusedHosts: string[];
  /** CALENDAR_WRITE_CANCEL: a cancelled call's event is deleted (`delete`, the default) or kept as CANCELLED. */
  onCancel: 'delete' | 'cancel';
  /** CALENDAR_WRITE_GIVE_UP_HOURS (24): a write still failing this long after it was queued is given up. */
  giveUpMs: number;
}

/** CALENDAR_WRITE and its options read. */
export const readCalendarWrite = (env: NodeJS.ProcessEnv): CalendarWriteConfig => {
  const read = readCalendarFeeds(env.CALENDAR_WRITE, { name: 'CALENDAR_WRITE', credentials: true });
  return {
    calendars: read.feeds,
    problems: read.problems,
    refusedHosts: read.refusedHosts,
    onCancel: env.CALENDAR_WRITE_CANCEL === 'cancel' ? 'cancel' : 'delete',
    giveUpMs: number(env.CALENDAR_WRITE_GIVE_UP_HOURS, 24) * 3_600_000,
  };
};

/** Field data (src/server/vitals/): the Core Web Vitals of real visits. */
export interface VitalsConfig {
  /** VITALS=off: /vitals answers 404 and nothing is stored (a build with it off sends none). */
  enabled: boolean;
  /** VITALS_RETENTION_DAYS: measurements older than this many days are deleted (90). */
  retentionDays: number;
  /** Beacons per client in a minute: a page view sends one, a reader rarely opens 60 in a minute. */
  perClientPerMinute: number;
  /** How often the measurements received are written, in one transaction, in ms. */
  flushMs: number;
  /**
   * VITALS_PER_SECOND: beacons this process takes in a second (500, five measurements each), later
   * ones waiting their turn (./vitals/pacer.ts): a flood of them leaves the enquiries their CPU.
   */
  perSecond: number;
  /**
   * VITALS_DAILY_CAP: measurements a day keeps (50,000: ten thousand page views), so that a flood
   * cannot fill the disk the enquiries are written to; past it, a random sample of the day's.
   */
  dailyCap: number;
  /**
   * VITALS_PER_NETWORK_PER_DAY: measurements one network (an IPv4 /24, an IPv6 /48) gives a day in
   * this process (500: a hundred page views), so that no network's flood sets the day's figures.
   */
  perNetwork: number;
}

/** How long clients may take, and how many connections they may hold (./http/server.ts). */
export interface ConnectionLimits {
  /** The whole request head must arrive within this (slow-header clients). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (slow-body clients). */
  requestTimeoutMs: number;
  /** Open connections at once, all clients together. */
  maxConnections: number;
  /**
   * Open connections at once from one address; a trusted proxy's are not counted, but as many
   * requests in hand at once of each visitor it names (X-Forwarded-For) are.
   */
  maxConnectionsPerClient: number;
}

/**
 * Why booking is off, or undefined when it is on: only a BOOKING_SECRET given but too short turns
 * it off (unset, the store's own secret signs the cancel links).
 */
export function bookingOffReason(secret: string | undefined): string | undefined {
  if (secret !== undefined && secret.length < 32)
    return 'BOOKING_SECRET is shorter than 32 characters';
  return undefined;
}

/**
 * Why the server cannot start with this STAFF_SECRET, or undefined: one set must be 32 characters
 * or more (unset, the key file signs the staff's links).
 */
export function staffSecretProblem(secret: string | undefined): string | undefined {
  if (secret !== undefined && secret.length < 32)
    return 'STAFF_SECRET is shorter than 32 characters: set it to a random string of 32 or more (e.g. openssl rand -hex 32), or unset it to keep the key in a file of KEYS_DIR.';
  return undefined;
}

/** PORT (4321): Node takes a whole number from 0 to 65535, and 0 is a port of the system's choosing. */
function readPort(env: NodeJS.ProcessEnv, invalid: string[]) {
  const port = Number(env.PORT || 4321);
  if (Number.isInteger(port) && port >= 1 && port <= 65_535) return port;
  invalid.push(
    'PORT is not a port number: set it to a whole number from 1 to 65535 (4321 when unset).',
  );
  return 4321;
}

/** An address's scheme ('https:'), or '' for what is no address. */
function protocolOf(text: string) {
  try {
    return new URL(text).protocol;
  } catch {
    return '';
  }
}

/** The origin of an http(s) address, or undefined (and a line in `invalid` naming the setting). */
function originOf(text: string, setting: string, invalid: string[]) {
  if (/^https?:$/.test(protocolOf(text))) return new URL(text).origin;
  invalid.push(
    `${setting} is not an http(s) address: give the origin in full, e.g. https://www.example.com.`,
  );
  return undefined;
}

/**
 * ENQUIRY_TO or ENQUIRY_FROM as the e-mails use it, or undefined (and a line in `invalid`), checked
 * by the forms' own rule (src/domain/forms.ts): a slip (`sales@`) had the mail server refuse every
 * e-mail, each then counted as failed for good. ENQUIRY_TO is one address, as it is also the
 * organizer of booked calls; ENQUIRY_FROM may carry a name: `Northgate Digital <website@example.com>`.
 */
function mailAddress(
  setting: 'ENQUIRY_TO' | 'ENQUIRY_FROM',
  text: string | undefined,
  invalid: string[],
) {
  const value = text?.trim();
  if (!value) return undefined;
  const named = setting === 'ENQUIRY_FROM' ? /^[^<>\r\n]*<([^<>]*)>$/.exec(value) : null;
  if (isValidEmail(named ? named[1]! : value)) return value;
  // No example address: the log writes any address it is given as [e-mail].
  invalid.push(
    setting === 'ENQUIRY_TO'
      ? 'ENQUIRY_TO is not an e-mail address: set it to the one inbox enquiries go to.'
      : 'ENQUIRY_FROM is not an e-mail address: set it to one address, with a name before it in <> if wanted.',
  );
  return undefined;
}

/**
 * Why `text` cannot be the PostgreSQL store's address (DATABASE_URL, `store:copy --to`), or
 * undefined. It is never repeated: it holds the password.
 */
export function databaseUrlProblem(text: string): string | undefined {
  if (/^postgres(ql)?:$/.test(protocolOf(text))) return undefined;
  return 'DATABASE_URL is not a PostgreSQL address: set it as postgres://USER:PASSWORD@HOST:5432/DATABASE, or unset it for the SQLite store (ENQUIRY_DB).';
}

const number = (value: string | undefined, fallback: number) => {
  const parsed = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(parsed) && parsed > 0
    ? parsed
    : fallback;
};

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * The JOBS_* settings; each read under its old name (OUTBOX_*) too, when only that is set, with a
 * warning that names the new one.
 */
function readJobs(env: NodeJS.ProcessEnv, warnings: string[]): JobsConfig {
  const read = (name: keyof typeof OLD_JOBS_NAMES, fallback: number) => {
    const oldName = OLD_JOBS_NAMES[name];
    const given = (key: string) => env[key] !== undefined && env[key] !== '';
    if (!given(oldName)) return number(env[name], fallback);
    if (given(name)) {
      warnings.push(`${oldName} is set beside ${name}, which is used: remove ${oldName}.`);
      return number(env[name], fallback);
    }
    warnings.push(`${oldName} is now called ${name}: it is still read, but rename it.`);
    return number(env[oldName], fallback);
  };
  return {
    pollMs: read('JOBS_POLL_MS', JOBS_POLL_MS),
    retryBaseMs: read('JOBS_RETRY_BASE_MS', JOBS_RETRY_BASE_MS),
    retryMaxMs: read('JOBS_RETRY_MAX_MS', JOBS_RETRY_MAX_MS),
    leaseMs: read('JOBS_LEASE_MS', JOBS_LEASE_MS),
  };
}

/** EDITING and the folders of drafts and releases, KEYS_DIR's way: beside the SQLite store by default. */
function readEditing(env: NodeJS.ProcessEnv, databasePath: string): EditingConfig {
  const editingDir = resolve(env.EDITING_DIR || join(dirname(databasePath), 'editing'));
  const build = env.PUBLISH_BUILD_COMMAND?.trim();
  return {
    enabled: env.EDITING === 'on',
    editingDir,
    draftDir: join(editingDir, 'draft'),
    repoDir: resolve(env.SITE_REPO_DIR || '.'),
    releasesKept: Math.max(10, Math.floor(number(env.EDITING_RELEASES_KEPT, 12)) || 12),
    pollMs: number(env.EDITING_POLL_MS, 5000),
    buildCommand: build ? build.split(/\s+/) : undefined,
    buildPriority: env.PUBLISH_BUILD_PRIORITY?.trim() === 'normal' ? 'normal' : 'low',
    buildMinutes: Math.max(1, number(env.PUBLISH_BUILD_MINUTES, 30) || 30),
  };
}

let current: ServerConfig | undefined;

/**
 * This process's configuration: the environment, read on first use and kept, so that a request
 * never reads it again.
 */
export const serverConfig = (): ServerConfig => (current ??= readConfig(process.env));

/** How many calls an address and a network may book, how long one waits to be confirmed, the alert. */
function readBookingLimits(env: NodeJS.ProcessEnv) {
  const capsOff = env.BOOKING_CAP === 'off';
  return {
    bookingCap: capsOff
      ? Infinity
      : Math.floor(number(env.BOOKING_CAP, DEFAULT_BOOKING_CAP)) || DEFAULT_BOOKING_CAP,
    networkCap:
      capsOff || env.BOOKING_NETWORK_CAP === 'off'
        ? Infinity
        : Math.floor(number(env.BOOKING_NETWORK_CAP, DEFAULT_NETWORK_CAP)) || DEFAULT_NETWORK_CAP,
    unconfirmedShare:
      capsOff || env.BOOKING_UNCONFIRMED_SHARE === 'off'
        ? undefined
        : Math.min(1, number(env.BOOKING_UNCONFIRMED_SHARE, DEFAULT_UNCONFIRMED_SHARE)),
    confirmMs: number(env.BOOKING_CONFIRM_MINUTES, DEFAULT_CONFIRM_MINUTES) * 60_000,
    bookingAlertPerHour:
      env.BOOKING_ALERT_PER_HOUR === 'off'
        ? undefined
        : Math.floor(number(env.BOOKING_ALERT_PER_HOUR, DEFAULT_BOOKING_ALERT_PER_HOUR)),
  };
}

/**
 * The configuration an environment gives: every unset or invalid variable takes its default, but
 * an address the server cannot use, which is said in `invalid`.
 */
export function readConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const databasePath = env.ENQUIRY_DB || './data/enquiries.sqlite';
  const warnings: string[] = [];
  const invalid: string[] = [];
  const databaseProblem = env.DATABASE_URL ? databaseUrlProblem(env.DATABASE_URL) : undefined;
  if (databaseProblem) invalid.push(databaseProblem);
  // Else the mail client reads it as it can (`smtp//…` as this machine's port 587), every e-mail
  // then retried in vain.
  if (env.SMTP_URL && !/^smtps?:$/.test(protocolOf(env.SMTP_URL)))
    invalid.push(
      'SMTP_URL is not a mail server address: set it as smtps://USER:PASSWORD@HOST:465 (or smtp:// for STARTTLS on 587).',
    );
  return {
    listen: { host: env.HOST || '127.0.0.1', port: readPort(env, invalid) },
    distDir: env.DIST_DIR ?? 'dist',
    databasePath,
    databaseUrl: env.DATABASE_URL || undefined,
    backupKeep: Math.floor(number(env.BACKUP_KEEP, 14)) || 14,
    smtpUrl: env.SMTP_URL || undefined,
    mailTo: mailAddress('ENQUIRY_TO', env.ENQUIRY_TO, invalid),
    mailFrom: mailAddress('ENQUIRY_FROM', env.ENQUIRY_FROM, invalid),
    jobs: readJobs(env, warnings),
    rateLimit: {
      enabled: env.RATE_LIMIT !== 'off',
      max: number(env.RATE_LIMIT_MAX, 5),
      staffMax: number(env.STAFF_RATE_LIMIT_MAX, 60),
      windowMs: number(env.RATE_LIMIT_WINDOW_MS, 10 * 60 * 1000),
    },
    trustedProxies: list(env.TRUSTED_PROXIES),
    recaptcha: {
      secret: env.RECAPTCHA_SECRET || undefined,
      verifyUrl: env.RECAPTCHA_VERIFY_URL || 'https://www.google.com/recaptcha/api/siteverify',
    },
    allowedOrigins: list(env.ALLOWED_ORIGINS).flatMap(
      (origin) => originOf(origin, 'An entry of ALLOWED_ORIGINS', invalid) ?? [],
    ),
    bodyLimit: 32 * 1024,
    bookingSecret: env.BOOKING_SECRET || undefined,
    staffSecret: env.STAFF_SECRET || undefined,
    keysDir: env.KEYS_DIR || join(dirname(databasePath), 'keys'),
    ...readBookingLimits(env),
    staffEmails: list(env.STAFF_EMAILS),
    staffEditors: list(env.STAFF_EDITORS),
    editing: readEditing(env, databasePath),
    staffIdleMs: number(env.STAFF_SESSION_IDLE_MINUTES, 120) * 60_000,
    siteUrl: env.SITE_URL ? originOf(env.SITE_URL, 'SITE_URL', invalid) : undefined,
    logFormat: env.LOG_FORMAT === 'json' ? 'json' : 'text',
    stopGraceMs: number(env.STOP_GRACE_MS, 10_000),
    stopDrainMs: number(env.STOP_DRAIN_MS, 0),
    connections: {
      headersTimeoutMs: number(env.HEADERS_TIMEOUT_MS, 10_000),
      requestTimeoutMs: number(env.REQUEST_TIMEOUT_MS, 30_000),
      maxConnections: number(env.MAX_CONNECTIONS, 2_000),
      maxConnectionsPerClient: number(env.MAX_CONNECTIONS_PER_CLIENT, 64),
    },
    calendars: {
      ...readCalendarFeeds(env.CALENDAR_FEEDS, { caldav: readCalendarWrite(env).calendars }),
      refreshMs: number(env.CALENDAR_REFRESH_MINUTES, 5) * 60_000,
      maxStaleMs: number(env.CALENDAR_MAX_STALE_MINUTES, 60) * 60_000,
      timeoutMs: number(env.CALENDAR_TIMEOUT_SECONDS, 10) * 1000,
      maxBytes: number(env.CALENDAR_MAX_BYTES, 5 * 1024 * 1024),
    },
    calendarWrite: readCalendarWrite(env),
    vitals: {
      enabled: env.VITALS !== 'off',
      retentionDays: Math.floor(number(env.VITALS_RETENTION_DAYS, 90)) || 90,
      perClientPerMinute: number(env.VITALS_PER_CLIENT_PER_MINUTE, 60),
      flushMs: number(env.VITALS_FLUSH_MS, 1000),
      perSecond: number(env.VITALS_PER_SECOND, 500),
      dailyCap: Math.floor(number(env.VITALS_DAILY_CAP, 50_000)),
      perNetwork: Math.floor(number(env.VITALS_PER_NETWORK_PER_DAY, 500)),
    },
    warnings,
    invalid,
  };
}
