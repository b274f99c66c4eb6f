/**
 * The e-mails: one template per kind of e-mail an enquiry causes (MailKind), each a plain-text
 * message. A stored enquiry becomes the agency's notice; a booked call also the prospect's
 * confirmation, with a calendar invitation (./invitation.ts), and, when cancelled, a cancellation
 * to each. The agency's name and address come from the site's content, passed in (MailContent).
 * The outbox (./outbox.ts) sends them through ./smtp.ts.
 */
import { calendarEvent } from './invitation.ts';
import { signCancelToken } from '../booking/cancel-token.ts';
import { bodyText, headerText } from '../safe-text.ts';
import { asciiEmail } from '../../domain/forms.ts';
import { callZones, formatCallTime } from '../../domain/call-times.ts';
import type { MailKind, OutboxItem, StoredEnquiry } from '../store/types.ts';

export interface Mail {
  from: string;
  to: string;
  replyTo: string;
  subject: string;
  text: string;
  messageId: string;
  /** A calendar invitation (or its cancellation), sent as text/calendar with the message. */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; filename: string; content: string };
}

/** One line, so that no field can start a new header line: ./safe-text.ts's headerText. */
export const oneLine = (value: string) => headerText(value);

/** A subject: one line of at most 200 characters. */
const subjectLine = (value: string) => headerText(value, 200);

/** A body line `Label: value`, the value on one line, so that it cannot pass for another field. */
const field = (label: string, value: string | string[] | undefined) => {
  const text = headerText(Array.isArray(value) ? value.join(', ') : (value ?? ''));
  return `${label}: ${text || '(not given)'}`;
};

/** A visitor's free text (a message), its line breaks kept, for a body. */
const paragraph = (value: string | string[] | undefined, empty = '') =>
  bodyText(String(value ?? '')) || empty;

/**
 * An address a visitor gave that the mail path cannot send to (stored under an older, looser rule):
 * no retry can mend it. The message leaves the address out: it is visitor-written, and logged.
 */
export class UnmailableAddress extends Error {
  constructor() {
    super('the address cannot be mailed (it is not a valid e-mail address)');
    this.name = 'UnmailableAddress';
  }
}

/** A visitor's address as mail is sent to it: domain in ASCII (see asciiEmail). */
function mailableAddress(address: string): string {
  const ascii = asciiEmail(address.trim());
  if (!ascii) throw new UnmailableAddress();
  return ascii;
}

export function formatEnquiryMail(enquiry: StoredEnquiry, from: string, to: string): Mail {
  const { data } = enquiry;
  const isCall = enquiry.kind === 'call';
  const subject = isCall
    ? `Call request from ${enquiry.name}`
    : `Enquiry from ${enquiry.name}: ${([] as string[]).concat(data.service ?? []).join(', ')}`;
  const lines = isCall
    ? [
        'A visitor asked for a call through the website.',
        '',
        field('Name', data.name),
        field('Email', data.email),
        '',
        'Message:',
        paragraph(data.message),
      ]
    : [
        'A new enquiry arrived through the website.',
        '',
        field('First name', data.first_name),
        field('Last name', data.last_name),
        field('Email', data.email),
        field('Phone', data.contact),
        field('Services', data.service),
        '',
        'About the project:',
        paragraph(data.project, '(not given)'),
      ];
  lines.push('', '--', `Reference: ${enquiry.id}`, `Received: ${enquiry.createdAt}`);
  return {
    from,
    to,
    // The agency's notice goes out even for an address that cannot be mailed: without a Reply-To.
    replyTo: asciiEmail(enquiry.email.trim()) ?? '',
    subject: subjectLine(subject),
    text: lines.join('\n'),
    messageId: `<${enquiry.id}@enquiries.invalid>`,
  };
}

/** What the mails of a booked call need besides the booking. */
export interface BookingMailOptions {
  /** The site's public address, for the cancel link: SITE_URL, or the site of astro.config.mjs. */
  siteUrl: string;
  secret: string;
}

/**
 * What the e-mails say of the agency, from the site's content (settings.yaml's `brand` and `email`,
 * read by src/lib/content.ts): server/ does not read the content itself.
 */
export interface MailContent {
  /** The agency's name, as the site shows it. */
  brand: string;
  /** The agency's public address; its domain names the booked calls' calendar entries. */
  email: string;
  /** The hosts of availability.yaml: a call's host is named by its id. */
  hosts: { id: string; name: string; email: string }[];
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

/**
 * The .ics of a booked call (METHOD:REQUEST), or of its cancellation (METHOD:CANCEL), for the mail
 * it goes with. Only the agency's carries the visitor's message (DESCRIPTION): the prospect's
 * carries nothing they typed but their name, so that the booking form cannot send anyone text.
 */
export function callInvitation(
  enquiry: StoredEnquiry,
  mail: MailKind,
  { to, content }: Pick<MailSetup, 'to' | 'content'>,
): NonNullable<Mail['icalEvent']> {
  const call = enquiry.call!;
  const cancelled = mail.endsWith('-cancel');
  const forAgency = mail === 'agency' || mail === 'agency-cancel';
  // The agency's and the host's go out whatever the prospect's address: it is only named in them.
  const forStaff = forAgency || mail === 'host' || mail === 'host-cancel';
  const method = cancelled ? 'CANCEL' : 'REQUEST';
  const prospect = forStaff
    ? (asciiEmail(enquiry.email.trim()) ?? enquiry.email)
    : mailableAddress(enquiry.email);
  const host = hostOf(enquiry, content);
  const domain = content.email.slice(content.email.lastIndexOf('@') + 1);
  const body = calendarEvent({
    method,
    // The same UID and a higher SEQUENCE: calendars replace the invitation with its cancellation.
    uid: `${enquiry.id}@calls.${domain}`,
    sequence: cancelled ? 1 : 0,
    status: cancelled ? 'CANCELLED' : 'CONFIRMED',
    start: call.start,
    end: call.end,
    summary: headerText(String(enquiry.data.call_title ?? '')) || 'Call',
    ...(forAgency && { description: String(enquiry.data.message ?? '') }),
    organizer: { name: headerText(content.brand), email: asciiEmail(to) ?? to },
    attendees: [
      { name: enquiry.name, email: prospect },
      ...(host ? [{ name: host.name, email: asciiEmail(host.email) ?? host.email }] : []),
    ],
  });
  return { method, filename: cancelled ? 'cancel.ics' : 'invite.ics', content: body };
}

/** The host a call is booked with, as availability.yaml names them now; none for a call of no host. */
const hostOf = (enquiry: StoredEnquiry, content: MailContent) =>
  content.hosts.find((host) => host.id === enquiry.call?.host);

/** The call's time for the prospect (in their zone) and for the agency (in its own). */
function callTimes(enquiry: StoredEnquiry) {
  const start = enquiry.call!.start;
  const { agency, visitor } = callZones(enquiry.data);
  return {
    visitor: `${formatCallTime(start, visitor)} (${visitor})`,
    agency: `${formatCallTime(start, agency)} (${agency})`,
    same: visitor === agency,
  };
}

/** What every mail of a booked call shares; each template adds its subject and body. */
function bookedCall(enquiry: StoredEnquiry, mail: MailKind, setup: MailSetup) {
  const { to } = setup;
  const call = enquiry.call!;
  const forAgency = mail === 'agency' || mail === 'agency-cancel';
  const forHost = mail === 'host' || mail === 'host-cancel';
  const host = hostOf(enquiry, setup.content);
  if (forHost && !host)
    throw new Error(`The call's host "${call.host}" is not in availability.yaml.`);
  return {
    times: callTimes(enquiry),
    host,
    name: headerText(enquiry.name),
    brand: headerText(setup.content.brand),
    minutes: Math.round((Date.parse(call.end) - Date.parse(call.start)) / 60_000),
    mail: {
      from: setup.from,
      to: forAgency
        ? to
        : forHost
          ? (asciiEmail(host!.email) ?? host!.email)
          : mailableAddress(enquiry.email),
      replyTo: forAgency || forHost ? (asciiEmail(enquiry.email.trim()) ?? '') : to,
      messageId: `<${enquiry.id}.${mail}@enquiries.invalid>`,
      icalEvent: callInvitation(enquiry, mail, setup),
    },
  };
}

/** A booked call's mail from its subject and body lines, with the reference every one ends with. */
const callMail = (
  enquiry: StoredEnquiry,
  base: ReturnType<typeof bookedCall>['mail'],
  subject: string,
  lines: string[],
): Mail => ({
  ...base,
  subject: subjectLine(subject),
  text: [...lines, '', '--', `Reference: ${enquiry.id}`].join('\n'),
});

/**
 * The template of each kind of e-mail. An enquiry without a booked call causes only the agency's
 * notice (formatEnquiryMail); the rest are a booked call's.
 */
export const templates: Record<MailKind, (enquiry: StoredEnquiry, setup: MailSetup) => Mail> = {
  agency(enquiry, setup) {
    if (!enquiry.call) return formatEnquiryMail(enquiry, setup.from, setup.to);
    const { times, name, minutes, mail, host } = bookedCall(enquiry, 'agency', setup);
    return callMail(enquiry, mail, `Call booked: ${name}, ${times.agency}`, [
      'A visitor booked a call through the website.',
      '',
      `When: ${times.agency}`,
      ...(times.same ? [] : [`Their time: ${times.visitor}`]),
      `Length: ${minutes} minutes`,
      ...(host ? [`Host: ${headerText(host.name)}`] : []),
      field('Name', enquiry.data.name),
      field('Email', enquiry.data.email),
      '',
      'Message:',
      paragraph(enquiry.data.message),
    ]);
  },

  host(enquiry, setup) {
    const { times, name, minutes, mail, host } = bookedCall(enquiry, 'host', setup);
    return callMail(enquiry, mail, `Your call with ${name}: ${times.agency}`, [
      `Hello ${headerText(host!.name)},`,
      '',
      'A prospect booked an introductory call with you through the website. The invitation is',
      'attached: open it to add the call to your calendar.',
      '',
      `When: ${times.agency}`,
      ...(times.same ? [] : [`Their time: ${times.visitor}`]),
      `Length: ${minutes} minutes`,
      field('Name', enquiry.data.name),
      field('Email', enquiry.data.email),
      '',
      'Message:',
      paragraph(enquiry.data.message),
    ]);
  },

  'host-cancel'(enquiry, setup) {
    const { times, name, mail } = bookedCall(enquiry, 'host-cancel', setup);
    return callMail(enquiry, mail, `Call cancelled: ${name}, ${times.agency}`, [
      `${name} cancelled their call with you of ${times.agency}. The attached update removes it`,
      'from your calendar, and the time is free again.',
    ]);
  },

  'agency-cancel'(enquiry, setup) {
    const { times, name, mail, host } = bookedCall(enquiry, 'agency-cancel', setup);
    return callMail(enquiry, mail, `Call cancelled: ${name}, ${times.agency}`, [
      `${name} cancelled their call of ${times.agency}${host ? ` with ${headerText(host.name)}` : ''}. The time is free again.`,
      field('Email', enquiry.data.email),
    ]);
  },

  prospect(enquiry, setup) {
    const { booking } = setup;
    const { times, name, brand, minutes, mail } = bookedCall(enquiry, 'prospect', setup);
    if (!booking) throw new Error('Booking mails need BOOKING_SECRET and a site address.');
    const token = signCancelToken(enquiry.id, Date.parse(enquiry.call!.start), booking.secret);
    const cancelUrl = new URL(`/schedule/cancel?token=${token}`, booking.siteUrl).href;
    return callMail(enquiry, mail, `Your call with ${brand}: ${times.visitor}`, [
      `Hello ${name},`,
      '',
      'Thank you for booking a call with us. It is in our calendar:',
      '',
      `When: ${times.visitor}`,
      ...(times.same ? [] : [`(Our time: ${times.agency})`]),
      `Length: ${minutes} minutes`,
      '',
      'The invitation is attached: open it to add the call to your calendar. We will reply to this',
      'e-mail with how to join (a phone number or a video link) before the call.',
      '',
      'Cannot make it? Cancel the call here, and book another time whenever suits you:',
      cancelUrl,
    ]);
  },

  'prospect-cancel'(enquiry, setup) {
    const { times, name, brand, mail } = bookedCall(enquiry, 'prospect-cancel', setup);
    return callMail(enquiry, mail, `Cancelled: your call with ${brand}, ${times.visitor}`, [
      `Hello ${name},`,
      '',
      `Your call of ${times.visitor} is cancelled, as you asked. The attached update removes it from`,
      'your calendar. You are welcome to book another time on our website whenever suits you.',
    ]);
  },
};

/** The e-mail of an outbox entry: its kind's template applied to its enquiry. */
export function formatMail(item: Pick<OutboxItem, 'mail' | 'enquiry'>, setup: MailSetup): Mail {
  const { mail, enquiry } = item;
  // Only the agency's notice exists for an enquiry without a call (see templates).
  if (!enquiry.call) return formatEnquiryMail(enquiry, setup.from, setup.to);
  return templates[mail](enquiry, setup);
}
