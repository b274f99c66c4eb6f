/**
 * The server's front door: every service of this process built once, from the configuration, in
 * this one place: the store, the rate limiter, the queue of jobs that sends the e-mails, the sweep of unconfirmed calls, the
 * hosts' calendars, the bookings, the pace alert, field data and /speed's figures. Nothing below reaches up for
 * them: the middleware hands `app` to the routes (`Astro.locals.app`), which hand each handler what
 * it needs (./booking/services.ts). Opened on first use and held; a store that cannot be opened
 * (a database that is down) is tried again at the next use.
 */
import {
  BOOKING_ALERT_QUIET_MS,
  bookingOffReason,
  serverConfig,
  staffSecretProblem,
  type ServerConfig,
} from './config.ts';
import { signingKeys } from './private-files.ts';
import { Bookings } from './booking/calls.ts';
import { startLapseSweep } from './booking/lapse.ts';
import { BookingPaceAlert } from './booking/pace-alert.ts';
import type { Services } from './booking/services.ts';
import { jobHandler, JobQueue } from './jobs/queue.ts';
import { mailHandlers } from './mail/delivery.ts';
import { meetingPlace } from './mail/templates.ts';
import { staffMembers } from './staff/access.ts';
import type { StaffDesk } from './staff/desk.ts';
import { SIGN_IN_JOB, signInMailHandler } from './staff/links.ts';
import { smtpSender } from './mail/smtp.ts';
import type { Mail, MailContent } from './mail/templates.ts';
import { onShutdown } from './shutdown.ts';
import { prefixed, RateLimiter } from './requests/rate-limit.ts';
import { CalendarService } from './calendars/service.ts';
import { callLog } from './booking/call-log.ts';
import { openStore } from './store/index.ts';
import type { EnquiryStore } from './store/types.ts';
import { startVitals, type VitalsService } from './vitals/service.ts';
import { SpeedFiguresCache, type SpeedFigures } from './vitals/speed.ts';
import { log } from './log.ts';

export interface App {
  /** The store, the queue of jobs, calendars and the rest: what the forms and the booking pages use. */
  services(): Promise<Services>;
  /** Field data's recorder and its limits (the beacons' route), opened on the first beacon. */
  vitals(): Promise<VitalsService>;
  /** What /speed shows: the store read at most once a minute, however many visit it. */
  speedFigures(): Promise<SpeedFigures>;
  /** The staff desk: its members, sessions and links, over the same store and queue. */
  staff(): Promise<StaffDesk>;
}

let mailContent: (() => Promise<MailContent>) | undefined;

/**
 * Where the e-mails get what they say of the agency: the site's settings, which server/ does not
 * read itself. src/middleware.ts gives it (src/lib/content.ts's getMailContent) before any route
 * can start the service; the first one given is kept.
 */
export function provideMailContent(load: () => Promise<MailContent>) {
  mailContent ??= load;
}

/** Held while it opens and once open; forgotten if it fails, so that the next use tries again. */
function once<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () =>
    (started ??= start().catch((error: unknown) => {
      started = undefined;
      throw error;
    }));
}

let speed: SpeedFiguresCache | undefined;

const started = once(start);

/** This process's services. */
export const app: App = {
  services: async () => (await started()).services,
  staff: async () => (await started()).staff,
  vitals: once(async () => {
    const { store, config } = await app.services();
    return startVitals(store, config);
  }),
  async speedFigures() {
    const { store } = await app.services();
    speed ??= new SpeedFiguresCache(async (from) => {
      const [records, days] = await Promise.all([
        store.vitalsSince(from),
        store.vitalsDaysSince(from),
      ]);
      return { records, days };
    });
    return speed.get();
  },
};

async function start(): Promise<{ services: Services; staff: StaffDesk }> {
  if (!mailContent) throw new Error('The e-mails have no content: see provideMailContent.');
  const content = await mailContent();
  const config = serverConfig();
  const store = await openStore(config);
  const keys = await keysOf(config, store);
  const staffSecret = keys.staff;
  const bookings = new Bookings(store, {
    bookingCap: config.bookingCap,
    networkCap: config.networkCap,
    onBooked: callLog.booked,
  });
  const { limiter, staffLimiter } = limitersOf(config, store);
  const bookingSecret = bookingSecretOf(config, keys.booking);
  const siteUrl = config.siteUrl ?? import.meta.env.SITE;
  const { jobs, alertMail } = startJobs(config, store, {
    content,
    siteUrl,
    bookingSecret,
    staffSecret,
  });
  if (bookingSecret) startSweep(config, bookings, jobs);
  const services: Services = {
    config,
    store,
    bookings,
    limiter,
    staffLimiter,
    jobs,
    bookingSecret,
    calendars: startCalendars(config, store, content),
    bookingAlert: bookingSecret ? paceAlertOf(config, bookings, alertMail) : undefined,
  };
  return { services, staff: staffDeskOf(config, content, services, staffSecret, siteUrl) };
}

/** Calls not confirmed in time are released, by whichever process sweeps first. */
function startSweep(config: ServerConfig, bookings: Bookings, jobs: JobQueue | undefined) {
  const sweep = startLapseSweep({ bookings, confirmMs: config.confirmMs, jobs, log: log.info });
  onShutdown(async () => sweep.stop());
}

/** The rate limits of posts and of the staff's sign-in: in the database when it counts them. */
function limitersOf(config: ServerConfig, store: EnquiryStore) {
  const { enabled, max, windowMs, staffMax } = config.rateLimit;
  if (!enabled) return { limiter: undefined, staffLimiter: undefined };
  const limiter = store.sharedRateLimit(max, windowMs) ?? new RateLimiter(max, windowMs);
  const sharedStaffLimit = store.sharedRateLimit(staffMax, windowMs);
  const staffLimiter = sharedStaffLimit
    ? prefixed(sharedStaffLimit, 'staff ')
    : new RateLimiter(staffMax, windowMs);
  return { limiter, staffLimiter };
}

/** The key of the calls' links; none, and booking a time is off, when BOOKING_SECRET is unfit. */
function bookingSecretOf(config: ServerConfig, key: string) {
  const bookingOff = bookingOffReason(config.bookingSecret);
  if (!bookingOff) return key;
  log.warn(
    `Booking a time for a call is off: ${bookingOff}. Prospects can still ask for a call. Set BOOKING_SECRET to a random string of 32 characters or more (e.g. openssl rand -hex 32), or unset it to use the key file in ${config.keysDir}.`,
  );
  return undefined;
}

/** The alert when calls are booked faster than BOOKING_ALERT_PER_HOUR; none when it is unset. */
function paceAlertOf(
  config: ServerConfig,
  bookings: Bookings,
  mail: ConstructorParameters<typeof BookingPaceAlert>[0]['mail'],
) {
  const perHour = config.bookingAlertPerHour;
  if (perHour === undefined) return undefined;
  return new BookingPaceAlert({
    bookings,
    rule: { perHour, quietMs: BOOKING_ALERT_QUIET_MS },
    ...(mail && { mail }),
    log: log.warn,
  });
}

/** The staff desk: the members (the hosts and STAFF_EMAILS), over the same services. */
function staffDeskOf(
  config: ServerConfig,
  content: MailContent,
  services: Services,
  secret: string,
  siteUrl: string,
): StaffDesk {
  return {
    store: services.store,
    services,
    jobs: services.jobs,
    members: staffMembers(
      content.hosts,
      [...config.staffEmails, ...config.staffEditors],
      content.timeZone ?? 'UTC',
    ),
    secret,
    idleMs: config.staffIdleMs,
    secure: siteUrl.startsWith('https:'),
    siteUrl,
    brand: content.brand,
    where: (hostId) => meetingPlace(hostId, content),
  };
}

/** What the jobs' handlers need besides the configuration and the store. */
interface JobsSetup {
  content: MailContent;
  siteUrl: string;
  /** Undefined when booking is off: a booked call's e-mails cannot be made then. */
  bookingSecret: string | undefined;
  staffSecret: string;
}

/**
 * The queue of jobs, with every kind's handler registered (the e-mails of enquiries and calls, the
 * staff's sign-in links), started, and stopped with the process; none when e-mail is off, since
 * every kind sends one. With it, how the pace alert mails the agency.
 */
function startJobs(config: ServerConfig, store: EnquiryStore, setup: JobsSetup) {
  const { smtpUrl, mailTo, mailFrom } = config;
  if (!smtpUrl || !mailTo || !mailFrom) {
    log.warn(
      `Enquiries are stored in ${store.description}; e-mail delivery is off (set SMTP_URL, ENQUIRY_TO and ENQUIRY_FROM to turn it on).`,
    );
    return { jobs: undefined, alertMail: undefined };
  }
  const { content, siteUrl, bookingSecret, staffSecret } = setup;
  const sender = smtpSender(smtpUrl);
  const mails = { sender, from: mailFrom, to: mailTo, content };
  const jobs = new JobQueue({
    store,
    handlers: new Map([
      ...mailHandlers({
        ...mails,
        ...(bookingSecret && { booking: { secret: bookingSecret, siteUrl } }),
      }),
      jobHandler(
        SIGN_IN_JOB,
        signInMailHandler({ store, secret: staffSecret, sender, siteUrl, setup: mails }),
      ),
    ]),
    ...config.jobs,
    log: log.warn,
    info: log.info,
  });
  jobs.start();
  // A restart (a deploy) finishes what is being run, and gives back what it cannot finish in time,
  // rather than leave it claimed until its lease ends.
  onShutdown(() => jobs.stop(1000));
  log.info(`Enquiries are stored in ${store.description} and mailed to ${mailTo}.`);
  const alertMail = { send: (mail: Mail) => sender.send(mail), from: mailFrom, to: mailTo };
  return { jobs, alertMail };
}

/**
 * The keys that sign the staff's and the calls' links: the environment's, else key files in
 * KEYS_DIR, never the store (./private-files.ts says how an older store's are moved out).
 */
async function keysOf(config: ServerConfig, store: EnquiryStore) {
  const problem = staffSecretProblem(config.staffSecret);
  // ./main.ts refuses to start on it; this is for `astro dev`, which does not run main.ts.
  if (problem) throw new Error(problem);
  const given = { staff: config.staffSecret, booking: config.bookingSecret };
  const keys = await signingKeys(config.keysDir, given, store);
  if (keys.moved)
    log.info(
      `The key of the call links was moved out of the store to ${config.keysDir}/booking.key: keep a copy of that folder, which backups of the store do not hold (docs/deploying.md).`,
    );
  if (config.databaseUrl && !(given.staff && given.booking))
    log.info(
      `The keys that sign links are kept in ${config.keysDir} on this machine: processes on other machines need the same, as STAFF_SECRET and BOOKING_SECRET (docs/deploying.md).`,
    );
  return keys;
}

/** The hosts' calendars, read in the background from now on: until read, a host is offered nothing. */
function startCalendars(config: ServerConfig, store: EnquiryStore, content: MailContent) {
  for (const problem of config.calendars.problems) log.warn(`${problem}; it is left out.`);
  if (config.calendars.feeds.length === 0 && config.calendars.refusedHosts.length === 0)
    return undefined;
  const calendars = new CalendarService({
    config: config.calendars,
    copies: store.calendarCopies,
    // Each feed is read in its host's zone from the first read.
    timeZones: new Map(
      content.hosts.flatMap((host) => (host.timeZone ? [[host.id, host.timeZone] as const] : [])),
    ),
  });
  void calendars.start().catch((error: unknown) => log.warn(`Calendars: ${String(error)}`));
  return calendars;
}
