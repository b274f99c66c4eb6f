/**
 * The e-mails: one template per kind of e-mail an enquiry causes (MailKind), each a plain-text
 * message. A stored enquiry becomes the agency's notice; a booked call also the prospect's
 * confirmation and its host's invitation, each with a calendar invitation (./invitation.ts); when
 * it moves, an update to each (the same event, a higher SEQUENCE); before it, reminders; when
 * cancelled, a cancellation to each; when released unconfirmed, a cancellation that says so. A call's e-mail is made from what it is about as queued
 * (MailCall), not from the call as it is when sent. The agency's name and address, the hosts and
 * where calls take place come from the site's content, passed in (MailContent). The e-mail jobs'
 * handler (./delivery.ts) sends them through ./smtp.ts.
 */
import { calendarEvent } from './invitation.ts';
import { callLinkPaths, confirmLinkPath } from '../call-token.ts';
import { bodyText, headerText } from '../safe-text.ts';
import { asciiEmail } from '../../domain/forms.ts';
import { callZones, formatCallTime } from '../../domain/call-times.ts';
import { callHasBegun, insideNotice } from '../../domain/reminders.ts';
import type { StoredEnquiry } from '../store/types.ts';
import type { MailCall, MailKind } from './mail-jobs.ts';

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

/**
 * A visitor's address as the staff's Reply-To: none for one that cannot be mailed, nor for one
 * holding `=?` (a dot-atom may: `=?utf-8?q?Eve=0D=0ABcc=3A...?=@example.com`), which mail
 * programs would decode as an encoded word though an address cannot hold one, and which cannot be
 * changed as headerText changes text without changing where a reply goes. The body still shows it.
 */
function replyAddress(address: string): string {
  const ascii = asciiEmail(address.trim());
  return ascii && !ascii.includes('=?') ? ascii : '';
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
    replyTo: replyAddress(enquiry.email),
    subject: subjectLine(subject),
    text: lines.join('\n'),
    messageId: `<${enquiry.id}@enquiries.invalid>`,
  };
}

/**
 * The e-mail of a staff member's sign-in link (../staff/links.ts): to them alone, the link valid
 * for `minutes`, once. `messageId` is random: nothing in a header names the link.
 */
export function formatSignInMail(
  {
    to,
    link,
    minutes,
    messageId,
  }: { to: string; link: string; minutes: number; messageId: string },
  { from, to: agency, content }: Pick<MailSetup, 'from' | 'to' | 'content'>,
): Mail {
  return {
    from,
    to,
    replyTo: agency,
    subject: subjectLine(`Sign in to the ${content.brand} desk`),
    text: [
      `Someone (we hope you) asked to sign in to the ${content.brand} staff desk with this address.`,
      '',
      'Open this link to sign in:',
      link,
      '',
      `It works once, for ${minutes} minutes. If you did not ask for it, ignore this e-mail: nobody can sign in without the link.`,
    ].join('\n'),
    messageId,
  };
}

/** What the mails of a booked call need besides the booking. */
export interface BookingMailOptions {
  /** The site's public address, for the change and cancel links: SITE_URL, or astro.config.mjs's site. */
  siteUrl: string;
  secret: string;
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
}

/** A cancellation, or a release of a call not confirmed in time: either takes it out of calendars. */
const isCancel = (mail: MailKind) => mail.endsWith('-cancel') || mail.endsWith('-lapse');
const isReminder = (mail: MailKind) => mail.endsWith('-reminder');
const forAgency = (mail: MailKind) => mail.startsWith('agency');
const forHost = (mail: MailKind) => mail.startsWith('host');

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
const hostOf = (about: MailCall, content: MailContent) =>
  content.hosts.find((host) => host.id === about.host);

/** Where a call of host `hostId` takes place, in words, as its e-mails say (the staff desk's too). */
export const meetingPlace = (hostId: string | null, content: MailContent) =>
  whereOf(
    content.hosts.find((host) => host.id === hostId),
    content,
  )?.text;

/** Where to meet: the host's video room, else the entry's location; none said, we will send it. */
function whereOf(host: MailHost | undefined, content: MailContent) {
  if (host?.meetingUrl)
    return { text: `Video call: ${host.meetingUrl}`, location: host.meetingUrl };
  const location = headerText(content.location ?? '');
  return location ? { text: location, location } : undefined;
}

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

/**
 * A time for the prospect (in their zone, on their clock), the agency (its own zone and clock) and
 * the host (their zone, the agency's clock).
 */
function timesOf(start: string, enquiry: StoredEnquiry, host: MailHost | undefined) {
  const { agency, visitor, agencyLocale, visitorLocale } = callZones(enquiry.data);
  const hostZone = host?.timeZone ?? agency;
  return {
    visitor: formatCallTime(start, visitor, visitorLocale),
    agency: formatCallTime(start, agency, agencyLocale),
    host: formatCallTime(start, hostZone, agencyLocale),
    /** For the prospect: our time too, when it differs. */
    ours: visitor === agency ? undefined : formatCallTime(start, agency, visitorLocale),
    /** For the staff: the prospect's time too, when it differs. */
    theirs: (zone: string) =>
      zone === visitor ? undefined : formatCallTime(start, visitor, agencyLocale),
    agencyZone: agency,
    hostZone,
  };
}

/** The change, cancel and confirm links of a call's e-mail to the prospect: for the call as it is about. */
function callLinks(enquiry: StoredEnquiry, about: MailCall, booking: BookingMailOptions) {
  const paths = callLinkPaths(enquiry.id, about.sequence, about.start, booking.secret);
  const url = (path: string) => new URL(path, booking.siteUrl).href;
  return {
    change: url(paths.change),
    cancel: url(paths.cancel),
    confirm: url(confirmLinkPath(enquiry.id, about.sequence, about.start, booking.secret)),
  };
}

/** The site's booking page, where a prospect whose call lapsed can book again. */
function bookingPage(setup: MailSetup) {
  if (!setup.booking) throw new Error('Booking mails need BOOKING_SECRET and a site address.');
  return new URL('/schedule', setup.booking.siteUrl).href;
}

/** How long before the call a reminder goes: "24 hours", "1 hour", "90 minutes", "2 days". */
function leadTime(minutes: number | undefined) {
  if (!minutes) return 'a little while';
  const [count, unit] =
    minutes % 1440 === 0 && minutes >= 2880
      ? [minutes / 1440, 'day']
      : minutes % 60 === 0
        ? [minutes / 60, 'hour']
        : [minutes, 'minute'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** What every mail of a booked call shares; each template adds its subject and body. */
function bookedCall(item: MailItem, setup: MailSetup) {
  const { enquiry, mail } = item;
  const { to } = setup;
  const about = aboutOf(item);
  const host = hostOf(about, setup.content);
  if (forHost(mail) && !host)
    throw new Error(`The call's host "${about.host}" is not in availability.yaml.`);
  const where = whereOf(host, setup.content);
  return {
    about,
    times: timesOf(about.start, enquiry, host),
    previous: about.previous && timesOf(about.previous.start, enquiry, host),
    host,
    where,
    name: headerText(enquiry.name),
    brand: headerText(setup.content.brand),
    minutes: Math.round((Date.parse(about.end) - Date.parse(about.start)) / 60_000),
    mail: {
      from: setup.from,
      to: forAgency(mail)
        ? to
        : forHost(mail)
          ? (asciiEmail(host!.email) ?? host!.email)
          : mailableAddress(enquiry.email),
      replyTo: forAgency(mail) || forHost(mail) ? replyAddress(enquiry.email) : to,
      // One Message-ID per e-mail: its kind, the call's sequence, a reminder's lead.
      messageId: `<${enquiry.id}.${mail}${about.sequence ? `.${about.sequence}` : ''}${about.remindMinutes ? `.${about.remindMinutes}m` : ''}@enquiries.invalid>`,
      ...(!isReminder(mail) && { icalEvent: callInvitation(item, setup) }),
    },
  };
}

type Call = ReturnType<typeof bookedCall>;

/** A booked call's mail from its subject and body lines, with the reference every one ends with. */
const callMail = (
  enquiry: StoredEnquiry,
  base: Call['mail'],
  subject: string,
  lines: string[],
): Mail => ({
  ...base,
  subject: subjectLine(subject),
  text: [...lines, '', '--', `Reference: ${enquiry.id}`].join('\n'),
});

/** The lines that say where to meet; none yet: that we will send it. */
const whereLines = (where: Call['where'], forProspect: boolean) =>
  where
    ? [`Where: ${where.text}`]
    : forProspect
      ? ['Where: we will reply to this e-mail with how to join (a phone number or a video link).']
      : [];

/** A line `Label: value` when there is a value. */
const optional = (label: string, value: string | undefined) =>
  value ? [`${label}: ${value}`] : [];

/** The prospect's lines of when and where: their time (ours too, where it differs), length, place. */
const prospectWhen = (call: Call, label = 'When') => [
  `${label}: ${call.times.visitor}`,
  ...(call.times.ours ? [`(Our time: ${call.times.ours})`] : []),
  `Length: ${call.minutes} minutes`,
  ...whereLines(call.where, true),
];

/** The host's lines of when and where: their time (the prospect's too, where it differs), place. */
const hostWhen = (call: Call, label = 'When') => [
  `${label}: ${call.times.host}`,
  ...optional('Their time', call.times.theirs(call.times.hostZone)),
  `Length: ${call.minutes} minutes`,
  ...whereLines(call.where, false),
];

/**
 * The prospect's links: confirm the call (while it waits for that: its state as the e-mail is
 * sent), change the time, or cancel.
 */
function linkLines(item: MailItem, about: MailCall, setup: MailSetup) {
  if (!setup.booking) throw new Error('Booking mails need BOOKING_SECRET and a site address.');
  const links = callLinks(item.enquiry, about, setup.booking);
  // A reminder inside the notice period: the change page would only say it is too late.
  const notice = setup.content.noticeHours;
  const tooLate =
    about.remindMinutes !== undefined &&
    notice !== undefined &&
    insideNotice(about.remindMinutes * 60_000, notice);
  const confirm = item.enquiry.call && !item.enquiry.call.confirmedAt;
  return [
    ...(confirm
      ? [
          'Please confirm the call with the link below: it tells us that the time suits you and that this address is yours.',
          'Confirm the call here:',
          links.confirm,
          '',
        ]
      : []),
    ...(tooLate
      ? ['Need another time? Reply to this e-mail and we will find one with you.']
      : ['Need another time? Choose one here:', links.change]),
    '',
    'Cannot make it at all? Cancel the call here:',
    links.cancel,
  ];
}

/** Whether the staff made the move or cancellation an e-mail is about (else the prospect did). */
const byStaff = (about: MailCall) => about.change?.by === 'staff';

/** The staff's reason for a move or cancellation, as one line, when they gave one. */
const reasonLines = (about: MailCall) => {
  const reason = headerText(about.change?.reason ?? '');
  return reason ? [`Reason: ${reason}`] : [];
};

/** The member who made the staff's change, by name (else address); none named (the CLI's): ''. */
const member = (about: MailCall) => headerText(about.change?.who ?? '', 200);
/** The staff's change's maker, to start a sentence with. */
const colleague = (about: MailCall) => member(about) || 'Our staff';
/** The staff's change's maker, after "by". */
const byWhom = (about: MailCall) => member(about) || 'staff';

/** For the agency and the host: who moved or cancelled the call, and why (the staff's reason). */
const whoLines = (about: MailCall, done: 'Moved' | 'Cancelled') => [
  `${done} by: ${byStaff(about) ? byWhom(about) : 'the prospect'}`,
  ...reasonLines(about),
];

/** The staff's lines about the prospect: name, e-mail and message. */
const prospectLines = (enquiry: StoredEnquiry) => [
  field('Name', enquiry.data.name),
  field('Email', enquiry.data.email),
  '',
  'Message:',
  paragraph(enquiry.data.message),
];

/**
 * The template of each kind of e-mail. An enquiry without a booked call causes only the agency's
 * notice (formatEnquiryMail); the rest are a booked call's.
 */
export const templates: Record<MailKind, (item: MailItem, setup: MailSetup) => Mail> = {
  agency(item, setup) {
    const { enquiry } = item;
    if (!enquiry.call) return formatEnquiryMail(enquiry, setup.from, setup.to);
    const { times, name, minutes, mail, host, where } = bookedCall(item, setup);
    return callMail(enquiry, mail, `Call booked: ${name}, ${times.agency}`, [
      'A visitor booked a call through the website.',
      '',
      `When: ${times.agency}`,
      ...optional('Their time', times.theirs(times.agencyZone)),
      `Length: ${minutes} minutes`,
      ...(host ? [`Host: ${headerText(host.name)}`] : []),
      ...whereLines(where, false),
      ...prospectLines(enquiry),
    ]);
  },

  host(item, setup) {
    const { enquiry } = item;
    const call = bookedCall(item, setup);
    const { times, previous, name, mail, host } = call;
    return callMail(enquiry, mail, `Your call with ${name}: ${times.host}`, [
      `Hello ${headerText(host!.name)},`,
      '',
      previous
        ? "A prospect's call was moved to a time you are free, and it is yours now."
        : 'A prospect booked an introductory call with you through the website.',
      ...(previous ? whoLines(call.about, 'Moved') : []),
      'The invitation is attached: open it to add the call to your calendar.',
      '',
      ...hostWhen(call),
      ...prospectLines(enquiry),
    ]);
  },

  prospect(item, setup) {
    const { enquiry } = item;
    const call = bookedCall(item, setup);
    const { about, times, name, brand, mail } = call;
    return callMail(enquiry, mail, `Your call with ${brand}: ${times.visitor}`, [
      `Hello ${name},`,
      '',
      'Thank you for booking a call with us. It is in our calendar:',
      '',
      ...prospectWhen(call),
      '',
      'The invitation is attached: open it to add the call to your calendar.',
      '',
      ...linkLines(item, about, setup),
    ]);
  },

  'agency-move'(item, setup) {
    const { enquiry } = item;
    const { about, times, previous, name, mail, host, where } = bookedCall(item, setup);
    return callMail(enquiry, mail, `Call moved: ${name}, now ${times.agency}`, [
      byStaff(about)
        ? `The call with ${name} was moved by ${byWhom(about)}.`
        : `${name} moved their call.`,
      ...whoLines(about, 'Moved'),
      '',
      ...(previous ? [`From: ${previous.agency}`] : []),
      `To: ${times.agency}`,
      ...optional('Their time', times.theirs(times.agencyZone)),
      ...(host ? [`Host: ${headerText(host.name)}`] : []),
      ...whereLines(where, false),
      field('Email', enquiry.data.email),
    ]);
  },

  'prospect-move'(item, setup) {
    const { enquiry } = item;
    const call = bookedCall(item, setup);
    const { about, times, previous, name, brand, mail } = call;
    return callMail(enquiry, mail, `Moved: your call with ${brand}, now ${times.visitor}`, [
      `Hello ${name},`,
      '',
      ...(byStaff(about)
        ? ['We have moved your call.', ...reasonLines(about)]
        : ['Your call is moved, as you asked:']),
      '',
      ...(previous ? [`From: ${previous.visitor}`] : []),
      ...prospectWhen(call, 'To'),
      '',
      'The attached update moves it in your calendar.',
      '',
      ...linkLines(item, about, setup),
    ]);
  },

  'host-move'(item, setup) {
    const { enquiry } = item;
    const { about, times, previous, name, mail, host, where } = bookedCall(item, setup);
    return callMail(enquiry, mail, `Call moved: ${name}, now ${times.host}`, [
      `Hello ${headerText(host!.name)},`,
      '',
      `${byStaff(about) ? `${colleague(about)} moved your call with ${name}` : `${name} moved their call with you`}. The attached update moves it in your calendar.`,
      ...whoLines(about, 'Moved'),
      '',
      ...(previous ? [`From: ${previous.host}`] : []),
      `To: ${times.host}`,
      ...optional('Their time', times.theirs(times.hostZone)),
      ...whereLines(where, false),
      field('Email', enquiry.data.email),
    ]);
  },

  'host-cancel'(item, setup) {
    const { enquiry } = item;
    const { about, times, name, mail } = bookedCall(item, setup);
    const moved = about.previous !== undefined;
    return callMail(
      enquiry,
      mail,
      `Call ${moved ? 'moved away' : 'cancelled'}: ${name}, ${times.host}`,
      [
        moved
          ? `${byStaff(about) ? `${colleague(about)} moved the call of ${name}` : `${name} moved their call`} with you of ${times.host} to a time another host takes. The`
          : `${byStaff(about) ? `${colleague(about)} cancelled the call of ${name}` : `${name} cancelled their call`} with you of ${times.host}. The`,
        'attached update removes it from your calendar, and the time is free again.',
        ...whoLines(about, moved ? 'Moved' : 'Cancelled'),
      ],
    );
  },

  'agency-cancel'(item, setup) {
    const { enquiry } = item;
    const { about, times, name, mail, host } = bookedCall(item, setup);
    const withHost = host ? ` with ${headerText(host.name)}` : '';
    return callMail(enquiry, mail, `Call cancelled: ${name}, ${times.agency}`, [
      byStaff(about)
        ? `The call of ${name} of ${times.agency}${withHost} was cancelled by ${byWhom(about)}. The time is free again.`
        : `${name} cancelled their call of ${times.agency}${withHost}. The time is free again.`,
      ...whoLines(about, 'Cancelled'),
      field('Email', enquiry.data.email),
    ]);
  },

  'prospect-cancel'(item, setup) {
    const { enquiry } = item;
    const { about, times, name, brand, mail } = bookedCall(item, setup);
    return callMail(enquiry, mail, `Cancelled: your call with ${brand}, ${times.visitor}`, [
      `Hello ${name},`,
      '',
      byStaff(about)
        ? `We have cancelled your call of ${times.visitor}. The attached update removes it from`
        : `Your call of ${times.visitor} is cancelled, as you asked. The attached update removes it from`,
      'your calendar. You are welcome to book another time on our website whenever suits you.',
      ...(byStaff(about) && reasonLines(about).length ? ['', ...reasonLines(about)] : []),
    ]);
  },

  'agency-lapse'(item, setup) {
    const { enquiry } = item;
    const { times, name, mail, host } = bookedCall(item, setup);
    return callMail(enquiry, mail, `Call released, not confirmed: ${name}, ${times.agency}`, [
      `${name} did not confirm their call of ${times.agency}${host ? ` with ${headerText(host.name)}` : ''} in time, so its time is free again.`,
      'The attached update removes it from your calendar; they have been told how to book again.',
      field('Email', enquiry.data.email),
    ]);
  },

  'prospect-lapse'(item, setup) {
    const { enquiry } = item;
    const { times, name, brand, mail } = bookedCall(item, setup);
    return callMail(enquiry, mail, `Not confirmed: your call with ${brand}, ${times.visitor}`, [
      `Hello ${name},`,
      '',
      'You booked a call with us, and it was not confirmed with the link in our e-mail in time, so we',
      'have released its time for others. The attached update removes it from your calendar.',
      '',
      `Time released: ${times.visitor}`,
      '',
      'You are welcome to book again whenever suits you; please confirm the new call with the link we',
      'send you. Choose a time here:',
      bookingPage(setup),
    ]);
  },

  'host-lapse'(item, setup) {
    const { enquiry } = item;
    const { times, name, mail } = bookedCall(item, setup);
    return callMail(enquiry, mail, `Call released, not confirmed: ${name}, ${times.host}`, [
      `${name} did not confirm their call with you of ${times.host} in time, so it is off. The`,
      'attached update removes it from your calendar, and the time is free again.',
    ]);
  },

  'prospect-reminder'(item, setup) {
    const { enquiry } = item;
    const { about, times, name, brand, minutes, mail, where } = bookedCall(item, setup);
    const lead = leadTime(about.remindMinutes);
    return callMail(
      enquiry,
      mail,
      `Reminder: your call with ${brand} in ${lead}, ${times.visitor}`,
      [
        `Hello ${name},`,
        '',
        `A reminder of your call with us, in ${lead}:`,
        '',
        `When: ${times.visitor}`,
        ...(times.ours ? [`(Our time: ${times.ours})`] : []),
        `Length: ${minutes} minutes`,
        ...whereLines(where, true),
        '',
        ...linkLines(item, about, setup),
      ],
    );
  },

  'host-reminder'(item, setup) {
    const { enquiry } = item;
    const call = bookedCall(item, setup);
    const { about, times, name, mail, host } = call;
    const lead = leadTime(about.remindMinutes);
    return callMail(enquiry, mail, `Reminder: your call with ${name} in ${lead}, ${times.host}`, [
      `Hello ${headerText(host!.name)},`,
      '',
      `A reminder of your call with ${name}, in ${lead}:`,
      '',
      ...hostWhen(call),
      ...prospectLines(enquiry),
    ]);
  },
};

/** The e-mail of a job: its kind's template applied to its enquiry. */
export function formatMail(item: MailItem, setup: MailSetup): Mail {
  // Only the agency's notice exists for an enquiry without a call (see templates).
  if (!item.enquiry.call) return formatEnquiryMail(item.enquiry, setup.from, setup.to);
  return templates[item.mail](item, setup);
}

/**
 * Why an e-mail due now is not to be sent after all, or nothing: a reminder of a call cancelled,
 * moved since or begun; an invitation or update superseded by a later move, or of a call cancelled
 * or lapsed (its cancellation or release goes instead). The agency's notice, the cancellations
 * and the releases always go.
 */
export function staleReason(item: MailItem, now: number): string | undefined {
  const { mail, enquiry, call: about } = item;
  const call = enquiry.call;
  if (!call || !about || mail === 'agency' || isCancel(mail)) return undefined;
  if (call.lapsedAt) return 'the call lapsed unconfirmed';
  if (call.cancelledAt) return 'the call was cancelled';
  if (about.sequence < call.sequence) return 'the call was moved since';
  if (isReminder(mail) && callHasBegun(call.start, now)) return 'the call has begun';
  return undefined;
}
