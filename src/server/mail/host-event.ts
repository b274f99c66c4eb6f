/**
 * A booked call's event as written into its host's own calendar over CalDAV (../calendars/
 * caldav-job.ts): the host's invitation (./call-invitation.ts, so the same UID, SEQUENCE
 * and words), made a calendar object resource (RFC 4791 §4.1): no METHOD, and no ORGANIZER or
 * ATTENDEE, so that a server that schedules (Nextcloud, iCloud, SOGo) sends nobody an invitation
 * of its own; its time in the host's zone; TENTATIVE until the prospect confirms it.
 */
import { foldLine } from './invitation.ts';
import { vtimezone, wallTime } from './vtimezone.ts';
import { callInvitation } from './call-invitation.ts';
import type { MailSetup } from './mail-item.ts';
import type { MailKind } from './mail-jobs.ts';
import type { StoredEnquiry } from '../store/types.ts';

/** The lines of an iCalendar text, unfolded (RFC 5545 §3.1). */
const unfold = (text: string) =>
  text
    .replace(/\r?\n[ \t]/g, '')
    .split(/\r?\n/)
    .filter(Boolean);

const fold = (lines: readonly string[]) => lines.map(foldLine).join('\r\n') + '\r\n';

/** Which of the host's e-mails says what the event is now. */
function mailOf(enquiry: StoredEnquiry): MailKind {
  const call = enquiry.call!;
  if (call.lapsedAt) return 'host-lapse';
  return call.cancelledAt ? 'host-cancel' : 'host';
}

/** A UTC DATE-TIME line of the invitation (DTSTART:20261201T093000Z): its name and instant. */
const UTC_TIME = /^(DTSTART|DTEND):(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/;

/** A line of the invitation as the calendar keeps it (none: left out). */
function calendarLine(line: string, zone: string | undefined, tentative: boolean): string[] {
  if (/^(METHOD|ORGANIZER|ATTENDEE)[;:]/.test(line)) return [];
  if (tentative && line === 'STATUS:CONFIRMED') return ['STATUS:TENTATIVE'];
  const time = zone && UTC_TIME.exec(line);
  if (time) {
    const [, name, y, mo, d, h, mi, s] = time;
    const instant = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
    return [`${name};TZID=${zone}:${wallTime(instant, zone!)}`];
  }
  return [line];
}

/** The call's event for its host's calendar, as it stands now (cancelled ones too). */
export function hostCalendarEvent(enquiry: StoredEnquiry, setup: MailSetup): string {
  const call = enquiry.call!;
  const host = setup.content.hosts.find((one) => one.id === call.host);
  const zone = host?.timeZone;
  const invitation = callInvitation({ mail: mailOf(enquiry), enquiry }, setup).content;
  const tentative = !call.confirmedAt && !call.cancelledAt;
  const lines = unfold(invitation).flatMap((line) => calendarLine(line, zone, tentative));
  const event = lines.indexOf('BEGIN:VEVENT');
  if (zone && event > 0) lines.splice(event, 0, ...vtimezone(zone, Date.parse(call.start)));
  return fold(lines);
}

/** The DESCRIPTION line of an event's text (unfolded), if it has one. */
export const descriptionOf = (text: string): string | undefined =>
  unfold(text).find((line) => /^DESCRIPTION[;:]/.test(line));

/**
 * Our event with another DESCRIPTION line (the host's, who edited it in their calendar; none: they
 * deleted it): the booking decides the time and status, the host keeps the words they wrote.
 */
export function withDescription(ours: string, description: string | undefined): string {
  const lines = unfold(ours).filter((line) => !/^DESCRIPTION[;:]/.test(line));
  if (description) lines.splice(lines.lastIndexOf('END:VEVENT'), 0, description);
  return fold(lines);
}

/** The end of every call's UID, as callInvitation makes them (`ID@calls.DOMAIN`): the feeds skip them. */
export const callUidSuffix = (content: Pick<MailSetup['content'], 'email'>) =>
  `@calls.${content.email.slice(content.email.lastIndexOf('@') + 1)}`;
