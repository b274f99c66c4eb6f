/**
 * The calendar invitation a booked call's e-mail carries (./invitation.ts writes its text): the
 * event, its update or its cancellation, as the prospect, the agency and the host each get it.
 */
import { calendarEvent } from './invitation.ts';
import { mailableAddress, type Mail } from './message.ts';
import {
  aboutOf,
  forAgency,
  forHost,
  hostOf,
  isCancel,
  whereOf,
  type MailItem,
  type MailSetup,
} from './mail-item.ts';
import { headerText } from '../safe-text.ts';
import { asciiEmail } from '../../domain/forms.ts';
import type { StoredEnquiry } from '../store/types.ts';

/** The staff's title of a call (the agency's and the host's event): whom it is with. */
export function staffSummary(enquiry: StoredEnquiry): string {
  const name = headerText(enquiry.name, 100) || 'a prospect';
  const company = headerText(String(enquiry.data.company ?? ''), 100);
  return company ? `Call with ${name} (${company})` : `Call with ${name}`;
}

/**
 * What the staff's event says (DESCRIPTION): the visitor's message, where to meet, and the desk's
 * page of the call, to move or cancel it (a member signs in there; the prospect's own links are
 * the prospect's alone).
 */
function staffDescription(
  enquiry: StoredEnquiry,
  whereLine: string | undefined,
  siteUrl: string | undefined,
) {
  const desk = siteUrl && new URL(`/staff?call=${encodeURIComponent(enquiry.id)}`, siteUrl).href;
  return [
    String(enquiry.data.message ?? ''),
    ...(whereLine ? [whereLine] : []),
    ...(desk ? [`Move or cancel the call on the desk: ${desk}`] : []),
  ].join('\n\n');
}

/**
 * The .ics of a booked call's e-mail: METHOD:REQUEST for an invitation or an update (the same UID,
 * the call's SEQUENCE then), METHOD:CANCEL for a cancellation, with the staff's reason (COMMENT)
 * if they gave one. The staff's (the agency's and the host's) name the prospect and carry the
 * visitor's message and the desk's page of the call (DESCRIPTION): the prospect's keeps the call's
 * title and carries nothing they typed but their name, so that the booking form cannot send
 * anyone text. Reminders carry none.
 */
export function callInvitation(
  item: MailItem,
  { to, content, booking }: Pick<MailSetup, 'to' | 'content' | 'booking'>,
): NonNullable<Mail['icalEvent']> {
  const { enquiry, mail } = item;
  const about = aboutOf(item);
  const cancelled = isCancel(mail);
  const method = cancelled ? 'CANCEL' : 'REQUEST';
  // The agency's and the host's go out whatever the prospect's address: it is only named in them.
  const prospect =
    forAgency(mail) || forHost(mail)
      ? (asciiEmail(enquiry.email.trim()) ?? enquiry.email)
      : mailableAddress(enquiry.email);
  const host = hostOf(about, content);
  const where = whereOf(host, content);
  const domain = content.email.slice(content.email.lastIndexOf('@') + 1);
  const whereLine = where && !cancelled ? `Where: ${where.text}` : undefined;
  const staff = forAgency(mail) || forHost(mail);
  const description = staff
    ? staffDescription(enquiry, whereLine, cancelled ? undefined : booking?.siteUrl)
    : whereLine;
  const reason = cancelled ? headerText(about.change?.reason ?? '') : '';
  const body = calendarEvent({
    method,
    // The same UID and a higher SEQUENCE: calendars replace the event with its update or
    // cancellation.
    uid: `${enquiry.id}@calls.${domain}`,
    sequence: about.sequence,
    status: cancelled ? 'CANCELLED' : 'CONFIRMED',
    start: about.start,
    end: about.end,
    summary: staff
      ? staffSummary(enquiry)
      : headerText(String(enquiry.data.call_title ?? '')) || 'Call',
    ...(description !== undefined && { description }),
    ...(where && !cancelled && { location: where.location }),
    ...(reason && { comment: reason }),
    organizer: { name: headerText(content.brand), email: asciiEmail(to) ?? to },
    attendees: [
      { name: enquiry.name, email: prospect },
      ...(host ? [{ name: host.name, email: asciiEmail(host.email) ?? host.email }] : []),
    ],
  });
  return { method, filename: cancelled ? 'cancel.ics' : 'invite.ics', content: body };
}
