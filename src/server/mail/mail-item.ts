/**
 * What a template is given: an e-mail job (MailItem) and the site's setup (MailSetup: the sender,
 * the agency's inbox, what the content says of the agency and its hosts, the booking links' keys);
 * and what a job says of its call: its kind (a cancellation, a reminder; whom it is for), the call
 * as it is about, its host and where it takes place.
 */
import { headerText } from '../safe-text.ts';
import type { JobRecord, StoredEnquiry } from '../store/types.ts';
import type { MailCall, MailKind, MailPayload } from './mail-jobs.ts';

/** What the mails of a booked call need besides the booking. */
export interface BookingMailOptions {
  /** The site's public address, for the change and cancel links: SITE_URL, or astro.config.mjs's site. */
  siteUrl: string;
  secret: string;
  /** BOOKING_CONFIRM_MINUTES, in ms: how long a prospect has to confirm a call, from the e-mail that asks. */
  confirmMs: number;
}

/** A host as the e-mails name them (availability.yaml's `hosts`). */
export interface MailHost {
  id: string;
  name: string;
  email: string;
  /** Their zone, for the times in their e-mails (their own, else the entry's). */
  timeZone?: string;
  /** Their own video room. */
  meetingUrl?: string;
}

/**
 * What the e-mails say of the agency, from the site's content (settings.yaml's `brand` and `email`,
 * availability.yaml's hosts and location, read by src/lib/content.ts): server/ does not read the
 * content itself.
 */
export interface MailContent {
  /** The agency's name, as the site shows it. */
  brand: string;
  /** The agency's public address; its domain names the booked calls' calendar entries. */
  email: string;
  /** The hosts of availability.yaml: a call's host is named by its id. */
  hosts: MailHost[];
  /** Where calls take place when the host has no video room (a phone number, a room). */
  location?: string;
  /** How long before a call it can no longer be moved with its link (availability.yaml's noticeHours). */
  noticeHours?: number;
  /** The agency's zone (availability.yaml's timeZone): the staff desk's, for staff who host no calls. */
  timeZone?: string;
}

/** Everything a template needs besides the enquiry. */
export interface MailSetup {
  /** ENQUIRY_FROM: the sender of every e-mail. */
  from: string;
  /** ENQUIRY_TO: the agency's inbox, and the organizer of booked calls. */
  to: string;
  content: MailContent;
  /** Without it, booked calls' own mails (to the prospect) cannot be made: booking is off then. */
  booking?: BookingMailOptions;
}

/** An e-mail job, as the templates take it. */
export interface MailItem {
  mail: MailKind;
  enquiry: StoredEnquiry;
  call?: MailCall;
  /** When it is sent (the job's run): what its links can still do then. */
  sentAt?: number;
  /** A host's cancellation or release: whether their calendar holds the call (hostCalendar). */
  hostCalendar?: HostCalendar;
}

/**
 * A host's calendar, by the e-mails of a call sent to them: holding the call (the last one sent was
 * an invitation or an update), never sent it (none was: each dropped by a move, or given up), sent
 * its cancellation already, or not known yet (one is still on its way).
 */
export type HostCalendar = 'holds' | 'never-invited' | 'withdrawn' | 'unknown';

/** The kinds of a host's e-mails that put a call into their calendar, or take it out. */
export const HOST_CALENDAR_MAILS: readonly MailKind[] = [
  'host',
  'host-move',
  'host-cancel',
  'host-lapse',
];

/**
 * Host `host`'s calendar by the e-mails of HOST_CALENDAR_MAILS queued before one to them
 * (`earlier`, in the order queued, which is their SEQUENCE's): one with no call kept (queued before
 * e-mails kept it) counts as theirs.
 */
export function hostCalendar(
  host: string | null,
  earlier: readonly JobRecord<MailPayload>[],
): HostCalendar {
  const theirs = earlier.filter((job) => (job.payload?.call?.host ?? host) === host);
  if (theirs.some((job) => job.state === 'running' || job.state === 'waiting')) return 'unknown';
  const last = theirs.findLast((job) => job.state === 'sent');
  if (!last) return 'never-invited';
  return isCancel(last.kind as MailKind) ? 'withdrawn' : 'holds';
}

/** A cancellation, or a release of a call not confirmed in time: either takes it out of calendars. */
export const isCancel = (mail: MailKind) => mail.endsWith('-cancel') || mail.endsWith('-lapse');
export const isReminder = (mail: MailKind) => mail.endsWith('-reminder');
export const forAgency = (mail: MailKind) => mail.startsWith('agency');
export const forHost = (mail: MailKind) => mail.startsWith('host');

/**
 * What a call's e-mail is about: as queued (its job's payload's `call`); for one made without it
 * (a test, a job queued before e-mails kept it), the call as stored.
 */
export function aboutOf({ mail, enquiry, call }: MailItem): MailCall {
  if (call) return call;
  const stored = enquiry.call!;
  return {
    sequence: isCancel(mail) ? Math.max(stored.sequence, 1) : stored.sequence,
    host: stored.host,
    start: stored.start,
    end: stored.end,
  };
}

/** The host an e-mail names (its recipient, for a host's), as availability.yaml has them now. */
export const hostOf = (about: MailCall, content: MailContent) =>
  content.hosts.find((host) => host.id === about.host);

/** Where a call of host `hostId` takes place, in words, as its e-mails say (the staff desk's too). */
export const meetingPlace = (hostId: string | null, content: MailContent) =>
  whereOf(
    content.hosts.find((host) => host.id === hostId),
    content,
  )?.text;

/** Where to meet: the host's video room, else the entry's location; none said, we will send it. */
export function whereOf(host: MailHost | undefined, content: MailContent) {
  if (host?.meetingUrl)
    return { text: `Video call: ${host.meetingUrl}`, location: host.meetingUrl };
  const location = headerText(content.location ?? '');
  return location ? { text: location, location } : undefined;
}
