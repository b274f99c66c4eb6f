/**
 * The e-mails: one template per kind of e-mail an enquiry causes (MailKind), each a plain-text
 * message. A stored enquiry becomes the agency's notice (./enquiry-mails.ts); a booked call also the
 * prospect's confirmation and its host's invitation, each with a calendar invitation
 * (./call-invitation.ts); when it moves, an update to each (the same event, a higher SEQUENCE);
 * before it, reminders; when cancelled, a cancellation to each; when released unconfirmed, a
 * cancellation that says so. A call's e-mail is made from what it is about as queued (MailCall, in
 * ./mail-item.ts), not from the call as it is when sent. The agency's name and address, the hosts
 * and where calls take place come from the site's content, passed in (MailContent). The e-mail
 * jobs' handler (./delivery.ts) sends them through ./smtp.ts.
 */
import { callInvitation } from './call-invitation.ts';
import { formatEnquiryMail } from './enquiry-mails.ts';
import {
  aboutOf,
  forAgency,
  forHost,
  hostOf,
  isCancel,
  isReminder,
  whereOf,
  type BookingMailOptions,
  type HostCalendar,
  type MailHost,
  type MailItem,
  type MailSetup,
} from './mail-item.ts';
import {
  field,
  mailableAddress,
  paragraph,
  replyAddress,
  subjectLine,
  type Mail,
} from './message.ts';
import { callLinkPaths, confirmLinkPath } from '../call-token.ts';
import { headerText } from '../safe-text.ts';
import { asciiEmail } from '../../domain/forms.ts';
import { availabilityRanges } from '../../domain/booking.ts';
import { callZones, formatCallTime } from '../../domain/call-times.ts';
import { callHasBegun, insideNotice } from '../../domain/reminders.ts';
import type { StoredEnquiry } from '../store/types.ts';
import { CONFIRMING_MAILS, type MailCall, type MailKind } from './mail-jobs.ts';

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

/** A length of time in words: "24 hours", "1 hour", "90 minutes", "2 days". */
function durationWords(minutes: number | undefined) {
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
  const confirm = item.enquiry.call && !item.enquiry.call.confirmedAt;
  const movable = changeLinkWorks(item, about, setup.content.noticeHours);
  return [
    ...(confirm
      ? [confirmAsk(item, setup.booking.confirmMs), 'Confirm the call here:', links.confirm, '']
      : []),
    ...(movable
      ? ['Need another time? Choose one here:', links.change]
      : ['Need another time? Reply to this e-mail and we will find one with you.']),
    '',
    'Cannot make it at all? Cancel the call here:',
    links.cancel,
  ];
}

/**
 * Asks the prospect to confirm. The e-mail that starts their time to do so (CONFIRMING_MAILS) says
 * how long it is and until when, in their zone: a call not confirmed by then is released, and the
 * release's e-mail says it was not confirmed "in time". A reminder only asks.
 */
function confirmAsk({ mail, enquiry, sentAt }: MailItem, confirmMs: number) {
  const why = 'it tells us that the time suits you and that this address is yours.';
  if (!CONFIRMING_MAILS.includes(mail))
    return `Please confirm the call with the link below: ${why}`;
  const { visitor, visitorLocale } = callZones(enquiry.data);
  const within = durationWords(Math.round(confirmMs / 60_000));
  const by =
    sentAt === undefined
      ? ''
      : `, by ${formatCallTime(new Date(sentAt + confirmMs).toISOString(), visitor, visitorLocale)}`;
  return [
    `Please confirm the call with the link below within ${within} of this e-mail${by}: ${why}`,
    'Until then we hold its time for you; a call not confirmed by then is released, and its time offered to others.',
  ].join(' ');
}

/** The time a prospect is given to read an e-mail and follow its link. */
const READING_MS = 3_600_000;

/**
 * Whether the change link would move the call when the e-mail is read: not once the call has been
 * moved as often as a link may move it, nor once the notice period begins within READING_MS of
 * the e-mail's sending (a reminder a day ahead, with a day's notice, offered a link whose page said
 * it was too late; the reminder's lead stands for the sending time where that is not known).
 */
function changeLinkWorks(item: MailItem, about: MailCall, noticeHours: number | undefined) {
  if ((item.enquiry.call?.moves ?? 0) >= availabilityRanges.moves.max) return false;
  const start = Date.parse(about.start);
  const sentAt =
    item.sentAt ??
    (about.remindMinutes !== undefined ? start - about.remindMinutes * 60_000 : undefined);
  return (
    noticeHours === undefined ||
    sentAt === undefined ||
    !insideNotice(start - sentAt - READING_MS, noticeHours)
  );
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
    const lead = durationWords(about.remindMinutes);
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
    const lead = durationWords(about.remindMinutes);
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
 * or lapsed (its cancellation or release goes instead); a host's cancellation or release when their
 * calendar does not hold the call (`hostCalendar`: never invited, or withdrawn already). The
 * agency's notice, and the agency's and the prospect's cancellations and releases, always go.
 */
export function staleReason(item: MailItem, now: number): string | undefined {
  const { mail, enquiry, call: about } = item;
  const call = enquiry.call;
  if (!call || !about || mail === 'agency') return undefined;
  if (isCancel(mail)) return withdrawnReason(item.hostCalendar);
  if (call.lapsedAt) return 'the call lapsed unconfirmed';
  if (call.cancelledAt) return 'the call was cancelled';
  if (about.sequence < call.sequence) return 'the call was moved since';
  if (isReminder(mail) && callHasBegun(call.start, now)) return 'the call has begun';
  return undefined;
}

/** Why a cancellation is not sent to a host whose calendar does not hold the call. */
const withdrawnReason = (calendar: HostCalendar | undefined) =>
  calendar === 'never-invited'
    ? 'the host was never sent the invitation'
    : calendar === 'withdrawn'
      ? 'the host was sent its cancellation already'
      : undefined;
