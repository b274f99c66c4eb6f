/**
 * The server's front door: every service of this process built once, from the configuration, in
 * this one place: the store, the rate limiter, the queue of jobs that sends the e-mails, the sweep of unconfirmed calls, the
 * hosts' calendars, the bookings, the pace alert, field data and /speed's figures. Nothing below reaches up for
 * them: the middleware hands `app` to the routes (`Astro.locals.app`), which hand each handler what
 * it needs (./booking/services.ts). Opened on first use and held; a store that cannot be opened
 * (a database that is down) is tried again at the next use.
 */
import { resolve } from 'node:path';
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
import { jobHandler, JobQueue, type JobHandler } from './jobs/queue.ts';
import { mailHandlers } from './mail/delivery.ts';
import { meetingPlace, type MailContent } from './mail/mail-item.ts';
import { staffMembers } from './staff/access.ts';
import type { StaffDesk } from './staff/desk.ts';
import { SIGN_IN_JOB, signInMailHandler } from './staff/links.ts';
import { smtpSender } from './mail/smtp.ts';
import type { Mail } from './mail/message.ts';
import { processWide } from './process-wide.ts';
import { onShutdown } from './shutdown.ts';
import { prefixed, RateLimiter } from './requests/rate-limit.ts';
import { CalendarService } from './calendars/service.ts';
import { calendarWriteHandler } from './calendars/caldav-job.ts';
import {
  callUidSuffix,
  descriptionOf,
  hostCalendarEvent,
  withDescription,
} from './mail/host-event.ts';
import { CALENDAR_WRITE_JOB } from './store/calendar-writes.ts';
import { callLog } from './booking/call-log.ts';
import { openStore } from './store/index.ts';
import type { EnquiryStore, JobKind, JobKinds } from './store/types.ts';
import { PUBLISH_JOB_PREFIX, Publishing } from './releases/publishing.ts';
import { publishHandler } from './releases/publish-job.ts';
import { commandBuilder } from './releases/build.ts';
import { startVitals, type VitalsService } from './vitals/service.ts';
import { FiguresCache, speedFiguresOf, type SpeedFigures } from './vitals/speed.ts';
import { summaryOf } from './vitals/report.ts';
import { SPEED_METRICS } from '../domain/vitals.ts';
import { log } from './log.ts';
import { afterContentRead, liveContent, provideContent } from './live-content.ts';

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

/**
 * Where the e-mails get what they say of the agency: the site's settings and hosts, which server/
 * does not read itself. src/middleware.ts gives it (src/lib/content.ts's getMailContent, and where
 * its build is) before any route can start the service; the live build's words follow a publish
 * (./live-content.ts).
 */
export const provideMailContent = (load: () => Promise<MailContent>, from: string) =>
  provideContent(load, from);

/** Held while it opens and once open; forgotten if it fails, so that the next use tries again. */
function once<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () =>
    (started ??= start().catch((error: unknown) => {
      started = undefined;
      throw error;
    }));
}

let speed: FiguresCache<SpeedFigures> | undefined;

const started = once(start);

/**
 * This process's services, one whatever the number of builds loaded: a publish's release is a
 * build of its own (../releases/live-site.ts) whose copy of this module finds the first one's
 * services (./process-wide.ts) rather than open a second store and queue.
 */
export const app: App = processWide<App>('app', () => ({
  services: async () => (await started()).services,
  staff: async () => (await started()).staff,
  vitals: once(async () => {
    const { store, config } = await app.services();
    return startVitals(store, config);
  }),
  async speedFigures() {
    const { store } = await app.services();
    speed ??= new FiguresCache(async (from, today) => {
      const [networks, days] = await Promise.all([
        store.vitalsP75(from, ['device', 'metric', 'network'], { metrics: SPEED_METRICS }),
        store.vitalsDaysSince(from),
      ]);
      return speedFiguresOf(networks, today, days);
    });
    return speed.get();
  },
}));

async function start(): Promise<{ services: Services; staff: StaffDesk }> {
  const content = await liveContent<MailContent>();
  const config = serverConfig();
  const store = await openStore(config);
  const keys = await keysOf(config, store);
  const staffSecret = keys.staff;
  const bookings = new Bookings(store, {
    bookingCap: config.bookingCap,
    networkCap: config.networkCap,
    onBooked: callLog.booked,
    writeCalendars: writesCalendars(config),
  });
  const { limiter, staffLimiter, signInLimiter, linkLimiter } = limitersOf(config, store);
  const bookingSecret = bookingSecretOf(config, keys.booking);
  const siteUrl = config.siteUrl ?? import.meta.env.SITE;
  const publishing = config.editing.enabled ? publishingOf(config, store) : undefined;
  const setup = { content, siteUrl, bookingSecret, staffSecret };
  const { jobs, alertMail } = startJobs(config, store, setup);
  // With e-mail off, the calls' writes into the hosts' calendars have a queue of their own.
  if (!jobs && writesCalendars(config))
    startQueue(config, store, [calendarWriterOf(config, store, setup)], {
      only: CALENDAR_WRITE_JOB,
    });
  if (publishing) followReleases(config, publishing, startPublishing(config, store, publishing));
  if (bookingSecret) startSweep(config, bookings, jobs);
  const services: Services = {
    config,
    store,
    bookings,
    limiter,
    staffLimiter,
    signInLimiter,
    linkLimiter,
    jobs,
    bookingSecret,
    calendars: startCalendars(config, store, content),
    bookingAlert: bookingSecret ? paceAlertOf(config, bookings, alertMail) : undefined,
  };
  const staff = staffDeskOf(config, content, services, staffSecret, siteUrl);
  // Given to the desk itself, not spread into a copy: its members follow the live site.
  if (publishing) staff.publishing = publishing;
  return { services, staff };
}

/** Calls not confirmed in time are released, by whichever process sweeps first. */
function startSweep(config: ServerConfig, bookings: Bookings, jobs: JobQueue | undefined) {
  const sweep = startLapseSweep({ bookings, confirmMs: config.confirmMs, jobs, log: log.info });
  onShutdown(async () => sweep.stop());
}

/**
 * The rate limits of the forms' posts, the desk's, the staff's sign-in and the call links': in the
 * database when it counts them.
 */
function limitersOf(config: ServerConfig, store: EnquiryStore) {
  const { enabled, max, windowMs, staffMax } = config.rateLimit;
  if (!enabled)
    return {
      limiter: undefined,
      staffLimiter: undefined,
      signInLimiter: undefined,
      linkLimiter: undefined,
    };
  const limiter = store.sharedRateLimit(max, windowMs) ?? new RateLimiter(max, windowMs);
  const staffLimit = (prefix: string) => {
    const shared = store.sharedRateLimit(staffMax, windowMs);
    return shared ? prefixed(shared, prefix) : new RateLimiter(staffMax, windowMs);
  };
  return {
    limiter,
    staffLimiter: staffLimit('staff '),
    signInLimiter: staffLimit('sign-in '),
    linkLimiter: staffLimit('link '),
  };
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
  // The hosts as the live site has them (a publish may change them): made again when they change,
  // and their names kept in the store, so that the desk still names a host a later publish removes
  // beside their calls. Made at the start too: a host removed by a deploy was kept by the process
  // before it, and every publish is asked for by a signed-in member, which reads these first.
  const membersOf = (hosts: MailContent['hosts']) => {
    services.store.desk
      .rememberHosts(hosts.map(({ id, name }) => ({ id, name })))
      .catch((error: unknown) => log.warn(`Could not keep the hosts' names: ${String(error)}`));
    const made = staffMembers(
      hosts,
      config.staffEmails,
      content.timeZone ?? 'UTC',
      config.staffEditors,
    );
    forgetFormerMembers(services.store, [...made.keys()]);
    return { of: hosts, members: made };
  };
  let members = membersOf(content.hosts);
  // At once when a publish or a roll back changes the hosts, not at the desk's next page: a host
  // taken off and put back in between would otherwise keep their passkeys.
  afterContentRead(() => {
    if (members.of !== content.hosts) members = membersOf(content.hosts);
  });
  return {
    store: services.store,
    services,
    jobs: services.jobs,
    get members() {
      if (members.of !== content.hosts) members = membersOf(content.hosts);
      return members.members;
    },
    secret,
    idleMs: config.staffIdleMs,
    secure: siteUrl.startsWith('https:'),
    siteUrl,
    localParty: config.siteUrl === undefined,
    get brand() {
      return content.brand;
    },
    where: (hostId) => meetingPlace(hostId, content),
    fieldData: fieldDataOf(services.store),
  };
}

/**
 * Whoever is no longer a member (a host a publish removed, an address taken out of STAFF_EMAILS)
 * loses their passkeys and sessions for good, so that the address put back later, or a shared one
 * whose person left, does not sign in with them (docs/security.md).
 */
function forgetFormerMembers(store: Services['store'], members: string[]) {
  store.staff
    .forgetFormerMembers(members, Date.now())
    .then(({ passkeys, sessions }) => {
      if (passkeys || sessions)
        log.info(`Staff: ${passkeys} passkeys and ${sessions} sessions of former members removed`);
    })
    .catch((error: unknown) =>
      log.warn(`Could not remove the former members' passkeys: ${String(error)}`),
    );
}

/** The desk's field data, p75 per page and metric: worked out by the store at most once a minute. */
function fieldDataOf(store: EnquiryStore): StaffDesk['fieldData'] {
  const cache = new FiguresCache(async (from) =>
    summaryOf(await store.vitalsP75(from, ['path', 'metric']), 'path'),
  );
  return () => cache.get();
}

/** What the jobs' handlers need besides the configuration and the store. */
interface JobsSetup {
  content: MailContent;
  siteUrl: string;
  /** Undefined when booking is off: a booked call's e-mails cannot be made then. */
  bookingSecret: string | undefined;
  staffSecret: string;
}

/** What a booked call's e-mails need to make its links and say its time to confirm: none when booking is off. */
const bookingMails = (config: ServerConfig, { bookingSecret, siteUrl }: JobsSetup) =>
  bookingSecret ? { booking: { secret: bookingSecret, siteUrl, confirmMs: config.confirmMs } } : {};

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
  const { content, siteUrl, staffSecret } = setup;
  const sender = smtpSender(smtpUrl);
  const mails = { sender, from: mailFrom, to: mailTo, content };
  const jobs = startQueue(
    config,
    store,
    [
      ...mailHandlers({
        ...mails,
        store,
        ...bookingMails(config, setup),
      }),
      jobHandler(
        SIGN_IN_JOB,
        signInMailHandler({ store, secret: staffSecret, sender, siteUrl, setup: mails }),
      ),
      ...(writesCalendars(config) ? [calendarWriterOf(config, store, setup)] : []),
    ],
    // Publishes are their own queue's (startPublishing): a build never holds an e-mail up.
    { exceptPrefix: PUBLISH_JOB_PREFIX },
  );
  log.info(`Enquiries are stored in ${store.description} and mailed to ${mailTo}.`);
  const alertMail = { send: (mail: Mail) => sender.send(mail), from: mailFrom, to: mailTo };
  return { jobs, alertMail };
}

/** Whether CALENDAR_WRITE names any calendar (one refused too: its writes fail, and say why). */
const writesCalendars = ({ calendarWrite }: ServerConfig) =>
  calendarWrite.calendars.length > 0 || calendarWrite.refusedHosts.length > 0;

/** The handler that writes the calls into the hosts' calendars (CALENDAR_WRITE), as the host's invitation has them. */
function calendarWriterOf(config: ServerConfig, store: EnquiryStore, setup: JobsSetup) {
  const { content } = setup;
  const mails = {
    from: config.mailFrom ?? content.email,
    to: config.mailTo ?? content.email,
    content,
    ...bookingMails(config, setup),
  };
  return jobHandler(
    CALENDAR_WRITE_JOB,
    calendarWriteHandler({
      config: config.calendarWrite,
      writes: store.calendarWrites,
      events: {
        eventOf: (enquiry) => hostCalendarEvent(enquiry, mails),
        descriptionOf,
        withDescription,
      },
      timeoutMs: config.calendars.timeoutMs,
    }),
  );
}

/** The queue of jobs with these kinds' handlers, started, and stopped with the process. */
function startQueue(
  config: ServerConfig,
  store: EnquiryStore,
  handlers: readonly [JobKind, JobHandler][],
  kinds: JobKinds,
) {
  const jobs = new JobQueue({
    store,
    handlers: new Map(handlers),
    kinds,
    ...config.jobs,
    log: log.warn,
    info: log.info,
  });
  jobs.start();
  // A restart (a deploy) finishes what is being run, and gives back what it cannot finish in time,
  // rather than leave it claimed until its lease ends.
  onShutdown(() => jobs.stop(1000));
  return jobs;
}

/** Stopped with the process: a build under way (its job is given back, and built again after). */
const stopBuilds = new AbortController();

/**
 * Publishing's queue: the jobs of this machine's draft only, built one at a time, the build
 * stopped with the process (its job given back, built again after the restart).
 */
function startPublishing(config: ServerConfig, store: EnquiryStore, publishing: Publishing) {
  onShutdown(async () => stopBuilds.abort());
  const kind = publishing.jobKind;
  return startQueue(
    config,
    store,
    [jobHandler(kind, publishHandler(publishing, stopBuilds.signal))],
    {
      only: kind,
    },
  );
}

/** Publishing over the store, with the build of ./releases/build.ts (EDITING=on). */
function publishingOf(config: ServerConfig, store: EnquiryStore) {
  return new Publishing({
    config: config.editing,
    store,
    builder: commandBuilder,
    log: log.info,
    distDir: resolve(config.distDir),
  });
}

/**
 * Every EDITING_POLL_MS, this machine's `current` link follows the store's live release (fetched
 * from the store if this machine lacks it): how a publish or a roll back made by another process,
 * or on another machine, reaches this one. Once at start too, so a restart serves the live one.
 */
function followReleases(config: ServerConfig, publishing: Publishing, jobs: JobQueue) {
  publishing.options.kick = () => jobs.kick();
  void publishing
    .prepare()
    .catch((error: unknown) => log.warn(`Could not prepare the draft: ${String(error)}`));
  let timer: NodeJS.Timeout | undefined;
  const round = () =>
    void publishing
      .follow()
      .catch((error: unknown) => log.warn(`Could not follow the live release: ${String(error)}`))
      .finally(() => {
        timer = setTimeout(round, config.editing.pollMs);
        timer.unref();
      });
  round();
  onShutdown(async () => clearTimeout(timer));
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
  for (const problem of [...config.calendars.problems, ...config.calendarWrite.problems])
    log.warn(`${problem}; it is left out.`);
  if (config.calendars.feeds.length === 0 && config.calendars.refusedHosts.length === 0)
    return undefined;
  const calendars = new CalendarService({
    config: config.calendars,
    copies: store.calendarCopies,
    ownUidSuffix: callUidSuffix(content),
    // Each feed is read in its host's zone from the first read.
    timeZones: new Map(
      content.hosts.flatMap((host) => (host.timeZone ? [[host.id, host.timeZone] as const] : [])),
    ),
  });
  void calendars.start().catch((error: unknown) => log.warn(`Calendars: ${String(error)}`));
  return calendars;
}
