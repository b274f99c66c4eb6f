/**
 * `npm run enquiries`: lists the stored enquiries, newest last; a booked call shows its time, its
 * state (booked, moved, cancelled, lapsed), its host, how often it moved and how its e-mails stand.
 * `npm run enquiries -- --csv --out enquiries.csv` exports them as CSV (to stdout without --out; npm
 * writes its own banner there too, so redirect only `npm run --silent ...`).
 * `--spam` includes those caught by the honeypot (left out by default).
 * `--cancel REF` cancels a booked call, and `--move REF START` moves it to a free time (START as
 * /schedule/slots.json lists it, e.g. 2026-12-03T10:15:00Z): with the same calendar updates as the
 * prospect's own links, and e-mails that say we did it (with `--reason TEXT`, why), sent by the
 * running server (with e-mail set up here as there). The staff may move a call inside the notice period and more than three times; the new
 * time must be one offered, with a host free then.
 * It reads the store the server uses: DATABASE_URL (PostgreSQL) when set, else ENQUIRY_DB (SQLite).
 * What it prints is made by ./enquiries/listing.ts; this file is the arguments and the I/O.
 */
import { existsSync } from 'node:fs';
import { commandArgs, writeOutput, wrongCall } from './command-args.ts';
import { serverConfig } from './config.ts';
import {
  csvHeader,
  csvRows,
  formatListing,
  hostLabel,
  hostNamesOf,
  type HostNames,
} from './enquiries/listing.ts';
import { readAvailability, readSiteEmail } from './booking/availability-file.ts';
import { callUidSuffix } from './mail/host-event.ts';
import { Bookings } from './booking/calls.ts';
import { moveBookedCall } from './booking/change.ts';
import { CalendarsUnreadable } from './booking/messages.ts';
import { refusalMessage } from './booking/refusals.ts';
import { CalendarService } from './calendars/service.ts';
import { openStore } from './store/index.ts';
import {
  SlotTaken,
  type CallChange,
  type EnquiryStore,
  type StoredEnquiry,
  type StoredNote,
} from './store/types.ts';
import { headerText, terminalText } from './safe-text.ts';
import { callZones, formatCallTime } from '../domain/call-times.ts';
import { REF_LENGTH } from '../domain/staff.ts';

const USAGE = `Usage: npm run enquiries [-- --csv [--out FILE]] [--spam]
       npm run enquiries -- --cancel REF [--reason TEXT]
       npm run enquiries -- --move REF START [--reason TEXT]`;

const { values, positionals } = commandArgs(USAGE, {
  options: {
    csv: { type: 'boolean', default: false },
    spam: { type: 'boolean', default: false },
    cancel: { type: 'string' },
    move: { type: 'string' },
    out: { type: 'string' },
    reason: { type: 'string' },
  },
  allowPositionals: true,
});
if (values.cancel && values.move)
  wrongCall('Either --cancel or --move: one call, one change.', USAGE);
if (values.reason !== undefined && !values.cancel && !values.move)
  wrongCall('--reason goes with --cancel or --move: it tells the prospect why.', USAGE);
if (values.move && positionals.length === 0)
  wrongCall('Say the new time: --move REF 2026-12-03T10:15:00Z', USAGE);
// A time as /schedule/slots.json lists it; "tomorrow" or "10:15" was answered as a time not offered.
if (values.move && positionals.length === 1 && Number.isNaN(Date.parse(positionals[0]!)))
  wrongCall(
    'Say the new time as a date and time in UTC, as /schedule/slots.json lists it: --move REF 2026-12-03T10:15:00Z',
    USAGE,
  );
// Only a move takes a word beside its options: its new time.
if (positionals.length > (values.move ? 1 : 0))
  wrongCall('This command takes nothing but its options (and --move REF START).', USAGE);
const config = serverConfig();
if (!config.databaseUrl && !existsSync(config.databasePath)) {
  console.error(
    `No enquiries yet: ${config.databasePath} does not exist (set ENQUIRY_DB to read another store, or DATABASE_URL for PostgreSQL).`,
  );
  process.exit(1);
}

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The staff's change, for its e-mails: `--reason` as one line of plain text (no line breaks or
 * control characters to forge lines of the e-mail or its headers with), or why it cannot be one.
 */
function staffChange(text: string | undefined): CallChange {
  if (text === undefined) return { by: 'staff' };
  const line = headerText(text);
  if (!line) return wrongCall('Say the reason in words: --reason "The host is ill"', USAGE);
  if (line.length > MAX_REASON)
    return wrongCall(
      `Keep the reason under ${MAX_REASON} characters: it goes in the e-mails as one line.`,
      USAGE,
    );
  return { by: 'staff', reason: line };
}
const MAX_REASON = 300;

/** The members' notes on these enquiries, read a few hundred at a time (as the desk's CSV does). */
async function notesOf(store: EnquiryStore, enquiries: readonly StoredEnquiry[]) {
  const notes = new Map<string, StoredNote[]>();
  for (let i = 0; i < enquiries.length; i += 500)
    for (const [id, some] of await store.desk.notesOf(enquiries.slice(i, i + 500).map((e) => e.id)))
      notes.set(id, some);
  return notes;
}

/**
 * The hosts' names, as the desk names them: availability.yaml's (this install's content), then those
 * the store kept of hosts since removed who have calls. A content file that cannot be read names none
 * but those: the ids still stand.
 */
async function hostNames(store: EnquiryStore): Promise<HostNames> {
  let live: { id: string; name: string }[] = [];
  try {
    live = readAvailability().hosts;
  } catch {}
  // A store no server of this version has opened yet has no table of them (migration 27).
  const former = await store.desk.formerHosts(live.map((host) => host.id)).catch(() => []);
  return hostNamesOf([...former, ...live]);
}

/** Whether e-mail is set up: then the cancellation or move queues its e-mails, as the links do. */
const mailIsOn = Boolean(config.smtpUrl && config.mailTo && config.mailFrom);

/** The bookings: a cancel or a move is written into the host's calendar too (CALENDAR_WRITE), as the server's are. */
const bookingsOf = (store: EnquiryStore) =>
  new Bookings(store, {
    writeCalendars:
      config.calendarWrite.calendars.length > 0 || config.calendarWrite.refusedHosts.length > 0,
  });

const when = (enquiry: StoredEnquiry, start: string) => {
  const { agency, agencyLocale } = callZones(enquiry.data);
  return formatCallTime(start, agency, agencyLocale);
};

/**
 * The booked call of reference `ref` (its id, or its beginning as the desk shows it: "Ref 71e44a31",
 * in either case), or why there is none to act on.
 */
async function bookedCall(store: EnquiryStore, ref: string) {
  const wanted = ref.trim().toLowerCase();
  const found = wanted.length >= REF_LENGTH ? await store.findByReference(wanted) : [];
  if (found.length > 1)
    return fail(
      `More than one enquiry's reference begins ${JSON.stringify(ref)}: give more of it (the whole is in the desk's "Move or cancel" link).`,
    );
  const enquiry = found[0];
  if (!enquiry?.call) return fail(`No booked call has the reference ${JSON.stringify(ref)}.`);
  return enquiry;
}

async function cancel(store: EnquiryStore, ref: string, change: CallChange) {
  const enquiry = await bookedCall(store, ref);
  const result = await bookingsOf(store).cancelCall(enquiry.id, {
    queueMail: mailIsOn,
    now: Date.now(),
    change,
  });
  if (result.status !== 'cancelled')
    return fail(refusalMessage(result.status, 'enquiry' in result ? result.enquiry : enquiry));
  console.log(
    `Cancelled the call of ${when(enquiry, enquiry.call!.start)}${mailIsOn ? '; the cancellations are queued.' : ' (e-mail is off: tell the prospect yourself).'}`,
  );
}

async function move(store: EnquiryStore, ref: string, start: string, change: CallChange) {
  const enquiry = await bookedCall(store, ref);
  const availability = readAvailability();
  const calendars =
    config.calendars.feeds.length || config.calendars.refusedHosts.length
      ? new CalendarService({
          config: config.calendars,
          copies: store.calendarCopies,
          // The call's own event in its host's calendar does not hold its time against the move.
          ownUidSuffix: callUidSuffix({ email: readSiteEmail() }),
        })
      : undefined;
  // The copies the server keeps: this command reads no calendar itself.
  await calendars?.loadCopies();
  let result;
  try {
    result = await moveBookedCall(
      { store, bookings: bookingsOf(store), jobs: undefined, calendars },
      availability,
      enquiry,
      start,
      {
        maxMoves: Infinity,
        queueMail: mailIsOn,
        change,
      },
    );
  } catch (error) {
    if (error instanceof SlotTaken) return fail('No host is free at that time: choose another.');
    if (error instanceof CalendarsUnreadable)
      return fail(
        'The calendars of the hosts at that time cannot be read now (see /healthz): nothing was changed.',
      );
    throw error;
  }
  if (result.status === 'not-offered') return fail(result.message);
  if (result.status !== 'moved')
    return fail(refusalMessage(result.status, 'enquiry' in result ? result.enquiry : enquiry));
  const call = result.enquiry.call!;
  const host = call.host
    ? terminalText(hostLabel(call.host, hostNamesOf(availability.hosts)))
    : 'no host';
  console.log(
    `Moved the call from ${when(enquiry, result.previous.start)} to ${when(enquiry, call.start)}, with ${host}${mailIsOn ? '; the updates are queued.' : ' (e-mail is off: tell the prospect yourself).'}`,
  );
}

const change = staffChange(values.reason);

let store: EnquiryStore;
try {
  store = await openStore(config, { readOnly: !values.cancel && !values.move });
} catch (error) {
  // A database that is down, or one no server has set up yet (the server runs the migrations).
  fail(`Cannot read the enquiries: ${reason(error)}`);
}
let listing: string | undefined;
try {
  if (values.cancel) await cancel(store!, values.cancel, change);
  else if (values.move) await move(store!, values.move, positionals[0]!, change);
  else {
    const enquiries = (await store!.all()).filter((e) => values.spam || !e.spam);
    const hosts = await hostNames(store!);
    listing = values.csv
      ? csvHeader() + csvRows(enquiries, await notesOf(store!, enquiries), hosts)
      : `${formatListing(enquiries, hosts)}\n`;
  }
} catch (error) {
  fail(
    `Cannot ${values.cancel ? 'cancel the call' : values.move ? 'move the call' : 'read the enquiries'}: ${reason(error)}`,
  );
} finally {
  await store!.close();
}

// A file of its own: only what was asked for, whatever npm prints around the command.
if (listing !== undefined && values.out) writeOutput(values.out, listing);
else if (listing !== undefined) process.stdout.write(listing);
