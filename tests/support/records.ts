/** The store's records as the tests build them: an enquiry, a call request, a booking, a measurement. */
import type { MailKind, MailPayload } from '../../src/server/mail/mail-jobs';
import type { MailItem } from '../../src/server/mail/mail-item';
import type { Job, NewEnquiry, StoredEnquiry, VitalRecord } from '../../src/server/store/types';

/** An enquiry of the contact form. */
export const enquiry = (overrides: Partial<NewEnquiry> = {}): NewEnquiry => ({
  kind: 'enquiry',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  data: {
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace@example.com',
    contact: '+44 20 7946 0958',
    service: ['Web Development', 'Technical Consultancy'],
    project: 'A booking platform.',
  },
  clientIp: '127.0.0.1',
  userAgent: 'test',
  spam: false,
  ...overrides,
});

export const plus = (iso: string, minutes: number) =>
  new Date(Date.parse(iso) + minutes * 60_000).toISOString().replace('.000Z', 'Z');

const WEEK = 7 * 86_400_000;
/** Whole 52-week spans that bring 1 January 2027 at least four weeks past the real clock. */
const SPANS_ON = Math.max(
  0,
  Math.ceil((Date.now() + 4 * WEEK - Date.parse('2027-01-01T00:00:00Z')) / (52 * WEEK)),
);
/**
 * A date of early 2027 as a test names it, moved on by whole 52-week spans (the same weekday, the
 * same season, so the same zones' offsets) once the real clock comes within four weeks of 2027: for
 * the tests whose store reads the real clock (a booking's e-mails are due from when it is made; a
 * call that has begun is neither moved nor cancelled), their calls are still to come on whatever
 * day the suite runs.
 */
export const ahead = (iso: string) => plus(iso, (SPANS_ON * 52 * WEEK) / 60_000);

/** A time on the wall clock of `timeZone`, as iCalendar writes a local DTSTART (20270105T093000). */
export const wallTime = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'medium' })
    .format(new Date(iso))
    .replace(/[-:]/g, '')
    .replace(' ', 'T');

/** A call request; with `start`, a booking of the 30-minute call at that time. */
export const call = (start?: string, overrides: Partial<NewEnquiry> = {}): NewEnquiry => ({
  kind: 'call',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  data: { name: 'Ada Lovelace', email: 'ada@example.com', message: 'About an app.' },
  clientIp: '127.0.0.1',
  userAgent: 'test',
  spam: false,
  ...(start && { call: { start, end: plus(start, 30) } }),
  ...overrides,
});

/** The call an e-mail job is about, as its payload carries it (none: not a booked call's). */
export const mailCallOf = (job: Job | undefined) => (job?.payload as MailPayload | undefined)?.call;

/**
 * An e-mail job's e-mail of kind `mail` about a booked call, as the store queues it: an update
 * moves the call from an hour earlier (sequence 1), a cancellation or a release (lapse) is
 * sequence 1, a reminder goes 24 hours ahead.
 */
export function mailItem(mail: MailKind, enquiry: StoredEnquiry): MailItem {
  const call = enquiry.call!;
  const moved = mail.endsWith('-move');
  return {
    mail,
    enquiry,
    call: {
      sequence:
        moved || mail.endsWith('-cancel') || mail.endsWith('-lapse')
          ? call.sequence + 1
          : call.sequence,
      host: call.host,
      start: call.start,
      end: call.end,
      ...(moved && { previous: { start: plus(call.start, -60), end: plus(call.end, -60) } }),
      ...(mail.endsWith('-reminder') && { remindMinutes: 24 * 60 }),
    },
  };
}

/** One stored measurement of field data: a phone's LCP on the home page. */
export const vitalRecord = (overrides: Partial<VitalRecord> = {}): VitalRecord => ({
  day: '2026-11-20',
  path: '/',
  metric: 'LCP',
  value: 1000,
  rating: 'good',
  navigation: 'navigate',
  connection: '4g',
  device: 'phone',
  build: 'b',
  target: null,
  phases: null,
  network: null,
  ...overrides,
});
