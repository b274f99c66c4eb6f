/**
 * The calendar invitation of a booked call (or its cancellation): an iCalendar object (RFC 5545)
 * with one event, written here rather than by a library so that every value goes through
 * ./safe-text.ts and nothing a visitor typed can end the event or start another. CRLF line ends;
 * lines folded at 75 octets, never inside a UTF-8 character.
 */
import { icsParam, icsText, mailtoUri } from '../safe-text.ts';

export interface CalendarEvent {
  /** REQUEST for an invitation, CANCEL for its cancellation (RFC 5546). */
  method: 'REQUEST' | 'CANCEL';
  /** The same UID with a higher sequence replaces an event in the calendars that have it. */
  uid: string;
  sequence: number;
  status: 'CONFIRMED' | 'CANCELLED';
  /** UTC instants: ISO strings or Dates. */
  start: string | Date;
  end: string | Date;
  /** When the object was made (DTSTAMP); now by default. */
  stamp?: string | Date;
  summary: string;
  description?: string;
  /** Where to meet: a video room's address, a phone number, a room. */
  location?: string;
  /** A note on the event (COMMENT): why a call was cancelled, when that was said. */
  comment?: string;
  organizer: { name: string; email: string };
  /** The prospect, and the host who takes the call. */
  attendees: { name: string; email: string }[];
}

/** The product that made the object (PRODID), as the invitations have always named it. */
const productId = 'northgate-digital/site';

/** 20261201T093000Z: a UTC DATE-TIME (RFC 5545 §3.3.5, form #2). */
export function utcDateTime(instant: string | Date): string {
  return new Date(instant)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
}

const utf8Length = (codePoint: number) =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;

/**
 * A content line folded as RFC 5545 §3.1 asks: at most 75 octets a line, each continuation starting
 * with a space; split between characters, so that no line ends in the middle of one's UTF-8 bytes.
 */
export function foldLine(line: string): string {
  const lines: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = utf8Length(char.codePointAt(0)!);
    if (octets + size > 75) {
      lines.push(current);
      // The continuation's leading space counts towards its 75 octets.
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  lines.push(current);
  return lines.join('\r\n');
}

/** The .ics text of one event: VCALENDAR with METHOD, and one VEVENT. */
export function calendarEvent(event: CalendarEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${icsText(productId)}`,
    'CALSCALE:GREGORIAN',
    `METHOD:${event.method}`,
    'BEGIN:VEVENT',
    `UID:${icsText(event.uid)}`,
    `DTSTAMP:${utcDateTime(event.stamp ?? new Date())}`,
    `DTSTART:${utcDateTime(event.start)}`,
    `DTEND:${utcDateTime(event.end)}`,
    `SEQUENCE:${Math.trunc(event.sequence)}`,
    `STATUS:${event.status}`,
    `SUMMARY:${icsText(event.summary)}`,
    ...(event.description === undefined ? [] : [`DESCRIPTION:${icsText(event.description)}`]),
    ...(event.location === undefined ? [] : [`LOCATION:${icsText(event.location)}`]),
    ...(event.comment === undefined ? [] : [`COMMENT:${icsText(event.comment)}`]),
    `ORGANIZER;CN=${icsParam(event.organizer.name)}:${mailtoUri(event.organizer.email)}`,
    ...event.attendees.map(
      (attendee) =>
        `ATTENDEE;CN=${icsParam(attendee.name)};RSVP=FALSE:${mailtoUri(attendee.email)}`,
    ),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
