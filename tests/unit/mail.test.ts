/** The e-mails the queue of jobs sends: their text, their headers, and the back-off between attempts. */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { checkCallToken } from '../../src/server/call-token';
import { backoffMs } from '../../src/server/jobs/queue';
import { callInvitation } from '../../src/server/mail/call-invitation';
import { formatEnquiryMail } from '../../src/server/mail/enquiry-mails';
import { hostCalendar, type MailContent } from '../../src/server/mail/mail-item';
import { oneLine, UnmailableAddress } from '../../src/server/mail/message';
import { formatMail, staleReason, templates } from '../../src/server/mail/templates';
import { MAIL_KINDS, type MailKind } from '../../src/server/mail/mail-jobs';
import type { CallChange, JobState, StoredEnquiry } from '../../src/server/store/types';
import { enquiry, mailItem } from '../support/records';

const { call: _none, ...fields } = enquiry();
const storedEnquiry = (overrides: Partial<StoredEnquiry> = {}): StoredEnquiry => ({
  ...fields,
  id: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b',
  createdAt: '2026-11-23T10:00:00.000Z',
  mailedAt: null,
  mailAttempts: 0,
  mailFailure: null,
  ...overrides,
});

describe('the e-mail', () => {
  it('is plain text with every field, and a reply-to of the visitor', () => {
    const stored = storedEnquiry();
    const mail = formatEnquiryMail(stored, 'site@agency.example', 'sales@agency.example');
    expect(mail.subject).toBe('Enquiry from Grace Hopper: Web Development, Technical Consultancy');
    expect(mail.replyTo).toBe('grace@example.com');
    expect(mail.text).toContain('Phone: +44 20 7946 0958');
    expect(mail.text).toContain('Services: Web Development, Technical Consultancy');
    expect(mail.text).toContain('A booking platform.');
    expect(mail.text).toContain(`Reference: ${stored.id}`);
    expect(mail.messageId).toBe(`<${stored.id}@enquiries.invalid>`);
  });

  it('cannot be given extra headers through a field', () => {
    const stored = storedEnquiry({
      name: 'Eve\r\nBcc: victim@example.com',
      email: 'eve@example.com\r\nX-Injected: 1',
    });
    const mail = formatEnquiryMail(stored, 'a@b.co', 'c@d.co');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.replyTo).not.toMatch(/[\r\n]/);
    expect(oneLine('a\r\nb\u0000c')).toBe('a b c');
  });

  it('backs off from 5 s, doubling, to at most 15 minutes (JOBS_RETRY_MAX_MS)', () => {
    const mid = () => 0.5;
    const max = 15 * 60_000;
    expect(backoffMs(0, 5000, max, mid)).toBe(5000);
    expect(backoffMs(3, 5000, max, mid)).toBe(40_000);
    expect(backoffMs(20, 5000, max, mid)).toBe(max);
    expect(backoffMs(20, 5000, 60_000, mid)).toBe(60_000);
    expect(backoffMs(0, 5000, max, () => 0)).toBe(4000);
  });
});

/** A call booked for 1 December 2026, 10:00 UTC, by a prospect in New York. */
const bookedCall = (data: Record<string, string> = {}): StoredEnquiry => {
  const fields = {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    message: 'An iPad app for our clinics.',
    time_zone: 'America/New_York',
    agency_time_zone: 'Europe/London',
    call_title: 'Introductory call',
    ...data,
  };
  return storedEnquiry({
    kind: 'call',
    name: fields.name,
    email: fields.email,
    data: fields,
    call: {
      start: '2026-12-01T10:00:00Z',
      end: '2026-12-01T10:30:00Z',
      cancelledAt: null,
      host: 'anna',
      sequence: 0,
      moves: 0,
      confirmedAt: null,
      lapsedAt: null,
    },
  });
};
const booking = {
  siteUrl: 'https://northgate-digital.example',
  secret: 'x'.repeat(40),
  confirmMs: 7_200_000,
};
/** What settings.yaml says of the agency, as the site passes it to the e-mails. */
const content = {
  brand: 'Northgate Digital',
  email: 'hello@northgate-digital.example',
  hosts: [{ id: 'anna', name: 'Anna Reid', email: 'anna@northgate-digital.example' }],
};
const mailOf = (mail: MailKind, call = bookedCall()) =>
  formatMail(mailItem(mail, call), setup(content));
/** What the templates need besides the enquiry, with `brand` the agency's content. */
function setup(brand: MailContent) {
  return { from: 'website@agency.example', to: 'sales@agency.example', content: brand, booking };
}

/** The events of an invitation, read as a calendar program reads it. */
const events = (ics: string) =>
  new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent') as ICAL.Component[];

describe('the times of a booked call', () => {
  it("are the prospect's zone and locale in their mails, the agency's in the staff's", () => {
    // A New York prospect whose browser says en-US: 12-hour, the zone by its name.
    const prospect = mailOf('prospect', bookedCall({ locale: 'en-US' }));
    expect(prospect.subject).toBe(
      'Your call with Northgate Digital: Tuesday, December 1, 2026, 5:00 AM Eastern Time',
    );
    expect(prospect.text).toContain('(Our time: Tuesday, December 1, 2026, 10:00 AM UK time)');
    // One in New York whose browser is British: their zone, a 24-hour clock.
    expect(mailOf('prospect', bookedCall({ locale: 'en-GB' })).subject).toBe(
      'Your call with Northgate Digital: Tuesday, 1 December 2026, 05:00 Eastern Time',
    );
    // The agency's and the host's copies: its zone and clock, and the prospect's time on it.
    for (const kind of ['agency', 'host'] as const) {
      const staff = mailOf(kind, bookedCall({ locale: 'en-US' }));
      expect(staff.subject).toMatch(/ Tuesday, 1 December 2026, 10:00 UK time$/);
      expect(staff.text).toContain('Their time: Tuesday, 1 December 2026, 05:00 Eastern Time');
    }
  });
});

describe('a move or cancellation by the staff', () => {
  /** The e-mail of `kind` about a change the staff made (with `reason`), or the prospect (none). */
  const changed = (kind: MailKind, change?: CallChange) => {
    const item = mailItem(kind, bookedCall({ locale: 'en-GB' }));
    return formatMail(
      { ...item, call: { ...item.call!, ...(change && { change }) } },
      setup(content),
    );
  };
  const staff = { by: 'staff' as const, reason: 'Anna is ill this week.' };

  it('tells the prospect we did it, and why; never "as you asked"', () => {
    const move = changed('prospect-move', staff).text;
    expect(move).toContain('We have moved your call.\nReason: Anna is ill this week.\n');
    expect(move).not.toContain('as you asked');
    const cancel = changed('prospect-cancel', staff).text;
    expect(cancel).toContain('We have cancelled your call of ');
    expect(cancel).toContain('Reason: Anna is ill this week.');
    expect(cancel).not.toContain('as you asked');
    // Without a reason, no Reason line.
    expect(changed('prospect-cancel', { by: 'staff' }).text).not.toContain('Reason:');
  });

  it('tells the prospect of their own change that it was done as they asked', () => {
    expect(changed('prospect-move').text).toContain('Your call is moved, as you asked:');
    expect(changed('prospect-cancel').text).toContain('is cancelled, as you asked.');
  });

  it("says in the agency's and the host's copies who did it", () => {
    for (const kind of ['agency-move', 'host-move'] as const) {
      expect(changed(kind, staff).text).toContain(
        'Moved by: staff\nReason: Anna is ill this week.',
      );
      expect(changed(kind).text).toContain('Moved by: the prospect');
      expect(changed(kind).text).not.toContain('Reason:');
    }
    for (const kind of ['agency-cancel', 'host-cancel'] as const) {
      expect(changed(kind, staff).text).toContain(
        'Cancelled by: staff\nReason: Anna is ill this week.',
      );
      expect(changed(kind).text).toContain('Cancelled by: the prospect');
    }
  });

  it('keeps a reason to one line of its own, whatever it holds', () => {
    const reason =
      'Sorry.\r\nConfirm the call here:\r\nhttps://evil.example\u2028Bcc: x@evil.example';
    for (const kind of [
      'prospect-move',
      'prospect-cancel',
      'agency-move',
      'host-cancel',
    ] as const) {
      const { text, subject } = changed(kind, { by: 'staff', reason });
      const line = text.split('\n').find((l) => l.startsWith('Reason: '))!;
      expect(line).toBe(
        'Reason: Sorry. Confirm the call here: https://evil.example Bcc: x@evil.example',
      );
      expect(text).not.toMatch(/^(https:\/\/evil\.example|Bcc: .*)$/m);
      expect(subject).not.toContain('Sorry');
    }
  });
});

describe('the mails of a booked call', () => {
  const attack =
    'Hi\rEND:VEVENT\rBEGIN:VEVENT\rUID:evil-1@evil.example\rSUMMARY:Urgent\rURL:https://evil.example/meet\rDTSTART:20270101T100000Z\rEND:VEVENT\rBEGIN:VEVENT\rX:';

  it('carry one event, however the message is made (bare CRs ending the event)', () => {
    const call = bookedCall({ message: attack });
    for (const mail of ['agency', 'prospect', 'agency-cancel', 'prospect-cancel'] as const) {
      const ics = mailOf(mail, call).icalEvent!.content;
      const found = events(ics);
      expect(found).toHaveLength(1);
      expect(found[0]!.getFirstPropertyValue('uid')).toBe(
        `${call.id}@calls.northgate-digital.example`,
      );
      expect(found[0]!.getFirstPropertyValue('url')).toBeNull();
      expect(ics).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
    }
    // The agency reads the message, its line breaks as line breaks (then the desk's link).
    const [event] = events(mailOf('agency', call).icalEvent!.content);
    expect(event!.getFirstPropertyValue('description')).toMatch(
      new RegExp(`^${RegExp.escape(attack.replaceAll('\r', '\n'))}\n\nMove or cancel`),
    );
  });

  it('give the prospect nothing they typed but their name: no message, no DESCRIPTION', () => {
    const call = bookedCall({ message: 'Buy now at https://spam.example' });
    for (const mail of ['prospect', 'prospect-cancel'] as const) {
      const { text, icalEvent } = mailOf(mail, call);
      expect(text).not.toContain('spam.example');
      expect(text).not.toContain('What you wrote');
      expect(text).toContain('Hello Ada Lovelace,');
      expect(icalEvent!.content).not.toContain('DESCRIPTION');
      expect(icalEvent!.content).not.toContain('spam.example');
    }
    const agency = mailOf('agency', call);
    expect(agency.text).toContain('Buy now at https://spam.example');
    expect(agency.icalEvent!.content).toContain('DESCRIPTION:Buy now at https://spam.example');
  });

  it('is an invitation as before: UTC times, the call title, sequence and status', () => {
    const invite = mailOf('prospect').icalEvent!;
    expect(invite).toMatchObject({ method: 'REQUEST', filename: 'invite.ics' });
    const lines = invite.content.split('\r\n');
    expect(lines.slice(0, 5)).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:northgate-digital/site',
      'CALSCALE:GREGORIAN',
      'METHOD:REQUEST',
    ]);
    expect(lines).toContain('DTSTART:20261201T100000Z');
    expect(lines).toContain('DTEND:20261201T103000Z');
    expect(lines).toContain('SEQUENCE:0');
    expect(lines).toContain('STATUS:CONFIRMED');
    expect(lines).toContain('SUMMARY:Introductory call');
    expect(lines).toContain('ORGANIZER;CN="Northgate Digital":mailto:sales@agency.example');
    expect(lines).toContain('ATTENDEE;CN="Ada Lovelace";RSVP=FALSE:mailto:ada@example.com');
    const cancel = mailOf('agency-cancel').icalEvent!;
    expect(cancel).toMatchObject({ method: 'CANCEL', filename: 'cancel.ics' });
    expect(cancel.content).toContain('METHOD:CANCEL\r\n');
    expect(cancel.content).toContain('SEQUENCE:1\r\n');
    expect(cancel.content).toContain('STATUS:CANCELLED\r\n');
    expect(cancel.content).toContain(`UID:${bookedCall().id}@calls.northgate-digital.example\r\n`);
  });

  it('fold long lines at 75 octets without splitting a character', () => {
    const { content: ics } = callInvitation(
      mailItem('agency', bookedCall({ message: 'é'.repeat(100) })),
      {
        to: 'a@b.co',
        content,
      },
    );
    const lines = ics.split('\r\n');
    expect(lines.every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const [event] = events(ics);
    expect(event!.getFirstPropertyValue('description')).toBe('é'.repeat(100));
  });

  it('go to an internationalised domain in ASCII (punycode)', () => {
    const call = bookedCall({ email: 'user@bücher.de' });
    const prospect = mailOf('prospect', call);
    expect(prospect.to).toBe('user@xn--bcher-kva.de');
    expect(mailOf('agency', call).replyTo).toBe('user@xn--bcher-kva.de');
    for (const mail of [prospect, mailOf('agency', call)]) {
      const [event] = events(mail.icalEvent!.content);
      expect(event!.getFirstPropertyValue('attendee')).toBe('mailto:user@xn--bcher-kva.de');
    }
    // The agency's text shows the address as it was typed.
    expect(mailOf('agency', call).text).toContain('Email: user@bücher.de');
  });

  it('for an address stored under the old rule: the agency is told, the prospect not mailed', () => {
    const call = bookedCall({ email: 'josé@example.com' });
    expect(() => mailOf('prospect', call)).toThrow(UnmailableAddress);
    expect(() => mailOf('prospect-cancel', call)).toThrow(UnmailableAddress);
    const agency = mailOf('agency', call);
    expect(agency.replyTo).toBe('');
    expect(agency.text).toContain('Email: josé@example.com');
  });
});

describe('the templates', () => {
  const kinds = MAIL_KINDS;

  it('make every kind of e-mail, each with its own message id', () => {
    expect(Object.keys(templates).sort()).toEqual([...kinds].sort());
    const ids = kinds.map(
      (kind) => templates[kind](mailItem(kind, bookedCall()), setup(content)).messageId,
    );
    expect(new Set(ids).size).toBe(kinds.length);
  });

  it("say the agency's name and address as the content gives them, never another", () => {
    const other = {
      brand: 'Harbour Lane Studio',
      email: 'hi@harbour-lane.example',
      hosts: [{ id: 'anna', name: 'Anna Reid', email: 'anna@harbour-lane.example' }],
    };
    for (const kind of kinds) {
      const site = { ...setup(other), booking: { ...booking, siteUrl: 'https://harbour.example' } };
      const mail = formatMail(mailItem(kind, bookedCall()), site);
      // A reminder carries no invitation: the calendars have the call already.
      expect(mail.icalEvent === undefined).toBe(kind.endsWith('-reminder'));
      const ics = mail.icalEvent?.content ?? '';
      // PRODID names the program that made the invitation (./invitation.ts), not the agency.
      const said = `${mail.subject}\n${mail.text}\n${ics.replace(/^PRODID:.*$/m, '')}`;
      expect(said).not.toMatch(/northgate/i);
      if (!mail.icalEvent) continue;
      expect(ics).toContain('ORGANIZER;CN="Harbour Lane Studio":mailto:sales@agency.example');
      expect(ics).toContain(`UID:${bookedCall().id}@calls.harbour-lane.example\r\n`);
      if (kind.startsWith('prospect')) expect(mail.subject).toContain('Harbour Lane Studio');
    }
  });
});

describe('a call that moves', () => {
  const call = bookedCall();
  const uid = `${call.id}@calls.northgate-digital.example`;
  const at = (start: string, sequence: number, previous?: string) => ({
    sequence,
    host: 'anna',
    start,
    end: new Date(Date.parse(start) + 30 * 60_000).toISOString().replace('.000Z', 'Z'),
    ...(previous && { previous: { start: previous, end: previous } }),
  });
  const read = (mail: MailKind, about: ReturnType<typeof at>) => {
    const { icalEvent, text } = formatMail({ mail, enquiry: call, call: about }, setup(content));
    const calendar = new ICAL.Component(ICAL.parse(icalEvent!.content));
    const [event, ...more] = calendar.getAllSubcomponents('vevent');
    expect(more).toEqual([]);
    return {
      text,
      method: calendar.getFirstPropertyValue('method'),
      uid: event!.getFirstPropertyValue('uid'),
      sequence: event!.getFirstPropertyValue('sequence'),
      start: (event!.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
      location: event!.getFirstPropertyValue('location'),
    };
  };

  it('is one event in every calendar: the same UID, a higher SEQUENCE each time, the new time', () => {
    const chain = [
      read('prospect', at('2026-12-01T10:00:00Z', 0)),
      read('prospect-move', at('2026-12-02T14:00:00Z', 1, '2026-12-01T10:00:00Z')),
      read('prospect-move', at('2026-12-03T09:30:00Z', 2, '2026-12-02T14:00:00Z')),
      read('prospect-cancel', at('2026-12-03T09:30:00Z', 3)),
    ];
    expect(
      chain.map(({ method, uid: id, sequence, start }) => [method, id, sequence, start]),
    ).toEqual([
      ['REQUEST', uid, 0, '2026-12-01T10:00:00.000Z'],
      ['REQUEST', uid, 1, '2026-12-02T14:00:00.000Z'],
      ['REQUEST', uid, 2, '2026-12-03T09:30:00.000Z'],
      ['CANCEL', uid, 3, '2026-12-03T09:30:00.000Z'],
    ]);
    // The update says the old time and the new, in the prospect's zone (New York: with no locale
    // stored, its 12-hour clock), and links the new time's.
    expect(chain[1]!.text).toContain('From: Tuesday, December 1, 2026, 5:00 AM Eastern Time');
    expect(chain[1]!.text).toContain('To: Wednesday, December 2, 2026, 9:00 AM Eastern Time');
    expect(chain[1]!.text).toMatch(/\/schedule\/change\?token=[\w-]+\.1\./);
    expect(chain[1]!.text).toMatch(/\/schedule\/cancel\?token=[\w-]+\.1\./);
  });

  it('says where to meet: the host’s video room, else the entry’s location, else that we will send it', () => {
    const room = 'https://meet.example.com/anna-reid';
    const withRoom = {
      ...content,
      hosts: [{ ...content.hosts[0]!, meetingUrl: room }],
      location: '+44 20 7946 0000',
    };
    const mail = formatMail({ mail: 'prospect', enquiry: call }, setup(withRoom));
    expect(mail.text).toContain(`Where: Video call: ${room}`);
    const ics = new ICAL.Component(ICAL.parse(mail.icalEvent!.content)).getFirstSubcomponent(
      'vevent',
    )!;
    expect(ics.getFirstPropertyValue('location')).toBe(room);
    expect(ics.getFirstPropertyValue('description')).toBe(`Where: Video call: ${room}`);
    const byPhone = formatMail(
      { mail: 'host-reminder', enquiry: call },
      setup({ ...content, location: '+44 20 7946 0000' }),
    );
    expect(byPhone.text).toContain('Where: +44 20 7946 0000');
    expect(formatMail({ mail: 'prospect', enquiry: call }, setup(content)).text).toContain(
      'Where: we will reply to this e-mail with how to join',
    );
  });

  it('leaves the change link out of a reminder inside the notice period: the page would only say it is too late', () => {
    const withNotice = setup({ ...content, noticeHours: 24 });
    const remind = (minutes: number) =>
      formatMail(
        {
          mail: 'prospect-reminder',
          enquiry: call,
          call: { ...at(call.call!.start, 0), remindMinutes: minutes },
        },
        withNotice,
      ).text;
    expect(remind(48 * 60)).toMatch(/\/schedule\/change\?token=/);
    expect(remind(60)).not.toMatch(/\/schedule\/change/);
    expect(remind(60)).toContain('Reply to this e-mail and we will find one with you.');
    expect(remind(60)).toMatch(/\/schedule\/cancel\?token=/);
  });

  it('offers the change link only where it moves the call as the e-mail is sent: not a day ahead with a day’s notice, nor after the last move', () => {
    const withNotice = setup({ ...content, noticeHours: 24 });
    const start = Date.parse(call.call!.start);
    const sent = (
      sentAt: number,
      moves = 0,
      mail: 'prospect-reminder' | 'prospect-move' = 'prospect-reminder',
    ) =>
      formatMail(
        {
          mail,
          enquiry: { ...call, call: { ...call.call!, moves } },
          call: { ...at(call.call!.start, moves), remindMinutes: 24 * 60 },
          sentAt,
        },
        withNotice,
      ).text;
    // The reminder of a day ahead, due as the notice begins: sent then, its page said too late.
    expect(sent(start - 24 * 3_600_000)).not.toMatch(/\/schedule\/change/);
    expect(sent(start - 25 * 3_600_000)).toMatch(/\/schedule\/change\?token=/);
    // The e-mail of the third move: a fourth is not the link's to make.
    expect(sent(start - 72 * 3_600_000, 2, 'prospect-move')).toMatch(/\/schedule\/change\?token=/);
    const third = sent(start - 72 * 3_600_000, 3, 'prospect-move');
    expect(third).not.toMatch(/\/schedule\/change/);
    expect(third).toContain('Reply to this e-mail and we will find one with you.');
  });

  it('asks the prospect to confirm a call that waits for it, with a confirm link of the call’s sequence; not once confirmed', () => {
    const waiting = bookedCall();
    for (const kind of ['prospect', 'prospect-move', 'prospect-reminder'] as const) {
      const text = mailOf(kind, waiting).text;
      expect(text).toMatch(
        /Please confirm the call with the link below( within 2 hours of this e-mail)?: it tells us that the time suits you and that this address is yours\./,
      );
      const token = /\/schedule\/confirm\?token=([\w.-]+)/.exec(text)![1]!;
      const { sequence } = mailItem(kind, waiting).call!;
      expect(
        checkCallToken('confirm', token, booking.secret, Date.parse('2026-11-30T00:00:00Z')),
      ).toEqual({
        ok: true,
        id: waiting.id,
        sequence,
      });
    }
    const confirmed = bookedCall();
    confirmed.call!.confirmedAt = '2026-11-25T10:00:00.000Z';
    for (const kind of ['prospect', 'prospect-move', 'prospect-reminder'] as const)
      expect(mailOf(kind, confirmed).text).not.toMatch(/confirm/i);
    // Nobody else is asked.
    for (const kind of ['agency', 'host', 'agency-move', 'prospect-cancel'] as const)
      expect(mailOf(kind, waiting).text).not.toContain('/schedule/confirm');
  });

  it('say, in the e-mail that starts the time to confirm, how long it is and until when in the prospect’s zone; a reminder only asks', () => {
    const waiting = bookedCall({ locale: 'en-US' });
    const sentAt = Date.parse('2026-11-25T14:30:00Z');
    const ninetyMinutes = { ...setup(content), booking: { ...booking, confirmMs: 90 * 60_000 } };
    const ask = (kind: MailKind) =>
      formatMail({ ...mailItem(kind, waiting), sentAt }, ninetyMinutes).text;
    // 16:00 UTC is 11:00 in New York: the lapse sweep releases the call no earlier.
    for (const kind of ['prospect', 'prospect-move'] as const)
      expect(ask(kind)).toContain(
        'Please confirm the call with the link below within 90 minutes of this e-mail, by Wednesday, November 25, 2026, 11:00 AM Eastern Time: it tells us that the time suits you and that this address is yours. Until then we hold its time for you; a call not confirmed by then is released, and its time offered to others.',
      );
    // Two hours, said in hours; a reminder's time to confirm began with an earlier e-mail.
    expect(mailOf('prospect', waiting).text).toContain('within 2 hours of this e-mail:');
    const reminder = ask('prospect-reminder');
    expect(reminder).toContain('Please confirm the call with the link below: it tells us');
    expect(reminder).not.toMatch(/within|released/);
  });

  it('tell the prospect of a call released unconfirmed why, and where to book again, with a CANCEL and none of its links', () => {
    const lapsed = bookedCall();
    const mail = mailOf('prospect-lapse', lapsed);
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe(
      'Not confirmed: your call with Northgate Digital, Tuesday, December 1, 2026, 5:00 AM Eastern Time',
    );
    expect(mail.text).toContain(
      [
        'Hello Ada Lovelace,',
        '',
        'You booked a call with us, and it was not confirmed with the link in our e-mail in time, so we',
        'have released its time for others. The attached update removes it from your calendar.',
        '',
        'Time released: Tuesday, December 1, 2026, 5:00 AM Eastern Time',
        '',
        'You are welcome to book again whenever suits you; please confirm the new call with the link we',
        'send you. Choose a time here:',
        'https://northgate-digital.example/schedule',
      ].join('\n'),
    );
    expect(mail.text).not.toMatch(/\/schedule\/(confirm|change|cancel)/);
    expect(mail.text).not.toContain('An iPad app');
    expect(mail.icalEvent).toMatchObject({ method: 'CANCEL', filename: 'cancel.ics' });
    expect(mail.icalEvent!.content).toContain('SEQUENCE:1\r\n');
    // The host and the agency, sent the invitation at booking, get a CANCEL and a line saying why.
    for (const kind of ['host-lapse', 'agency-lapse'] as const) {
      const note = mailOf(kind, lapsed);
      expect(note.subject).toMatch(/^Call released, not confirmed: Ada Lovelace, /);
      expect(note.text).toContain('did not confirm their call');
      expect(note.icalEvent?.method).toBe('CANCEL');
    }
  });

  it('drops, when due, a reminder or an update of a call moved or cancelled since, and a reminder of a call begun', () => {
    const start = call.call!.start;
    const about = at(start, 0);
    const now = Date.parse(start) - 60 * 60_000;
    const item = (mail: MailKind, stored: Partial<NonNullable<StoredEnquiry['call']>> = {}) => ({
      mail,
      enquiry: { ...call, call: { ...call.call!, ...stored } },
      call: about,
    });
    expect(staleReason(item('prospect-reminder'), now)).toBeUndefined();
    expect(staleReason(item('prospect-reminder', { sequence: 1 }), now)).toBe(
      'the call was moved since',
    );
    expect(staleReason(item('host', { sequence: 1 }), now)).toBe('the call was moved since');
    expect(staleReason(item('host-reminder', { cancelledAt: '2026-11-30T00:00:00Z' }), now)).toBe(
      'the call was cancelled',
    );
    expect(staleReason(item('prospect-reminder'), Date.parse(start))).toBe('the call has begun');
    // The agency's notice and every cancellation always go.
    expect(staleReason(item('agency', { sequence: 2 }), now)).toBeUndefined();
    expect(
      staleReason(item('host-cancel', { sequence: 2, cancelledAt: start }), now),
    ).toBeUndefined();
    // A call released unconfirmed: its reminders are dropped, its releases go.
    const lapsed = { sequence: 1, cancelledAt: start, lapsedAt: start };
    expect(staleReason(item('prospect-reminder', lapsed), now)).toBe('the call lapsed unconfirmed');
    expect(staleReason(item('prospect-lapse', lapsed), now)).toBeUndefined();
    // A host's cancellation goes only while their calendar holds the call.
    const cancel = { ...item('host-cancel', { sequence: 2 }), call: at(start, 2) };
    expect(staleReason({ ...cancel, hostCalendar: 'holds' }, now)).toBeUndefined();
    expect(staleReason({ ...cancel, hostCalendar: 'never-invited' }, now)).toBe(
      'the host was never sent the invitation',
    );
    expect(staleReason({ ...cancel, hostCalendar: 'withdrawn' }, now)).toBe(
      'the host was sent its cancellation already',
    );
  });

  it('reads a host’s calendar from the e-mails of the call queued before theirs: the last one sent', () => {
    const job = (id: number, kind: MailKind, host: string, state: JobState) => ({
      id,
      kind,
      state,
      payload: { call: { sequence: id, host, start: '2027-01-05T09:30:00Z', end: '' } },
    });
    const invited = job(1, 'host', 'anna', 'sent');
    expect(hostCalendar('anna', [invited])).toBe('holds');
    expect(hostCalendar('ben', [invited])).toBe('never-invited');
    expect(hostCalendar('ben', [invited, job(2, 'host', 'ben', 'dropped')])).toBe('never-invited');
    expect(hostCalendar('ben', [job(2, 'host', 'ben', 'failed')])).toBe('never-invited');
    expect(hostCalendar('ben', [job(2, 'host', 'ben', 'running')])).toBe('unknown');
    expect(hostCalendar('ben', [job(2, 'host', 'ben', 'waiting')])).toBe('unknown');
    const movedAway = job(2, 'host-cancel', 'anna', 'sent');
    expect(hostCalendar('anna', [invited, movedAway])).toBe('withdrawn');
    expect(hostCalendar('anna', [invited, movedAway, job(3, 'host', 'anna', 'dropped')])).toBe(
      'withdrawn',
    );
    expect(hostCalendar('anna', [invited, movedAway, job(3, 'host-move', 'anna', 'sent')])).toBe(
      'holds',
    );
  });
});

describe("the staff's calendar event of a call", () => {
  const hostile = 'Eve\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:Pwned;x,y\\z\u202e\u0000';
  /** The one event of an e-mail of `kind`, read as a calendar program reads it. */
  const eventOf = (kind: MailKind, call: StoredEnquiry, change?: CallChange) => {
    const item = mailItem(kind, call);
    const ics = formatMail(
      { ...item, call: { ...item.call!, ...(change && { change }) } },
      setup(content),
    ).icalEvent!.content;
    const found = events(ics);
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('names the prospect (and their company), and carries their message and the desk’s page of the call', () => {
    const call = bookedCall({ message: 'Budget: £40k; start, in March.\nCall me.' });
    for (const kind of ['host', 'agency', 'host-move'] as const) {
      const event = eventOf(kind, call);
      expect(event.getFirstPropertyValue('summary')).toBe('Call with Ada Lovelace');
      expect(event.getFirstPropertyValue('description')).toBe(
        `Budget: £40k; start, in March.\nCall me.\n\nMove or cancel the call on the desk: https://northgate-digital.example/staff?call=${call.id}`,
      );
    }
    const withCompany = bookedCall({ company: 'Babbage & Co, Ltd' });
    expect(eventOf('host', withCompany).getFirstPropertyValue('summary')).toBe(
      'Call with Ada Lovelace (Babbage & Co, Ltd)',
    );
    // The prospect's own keeps its title, and nothing they typed.
    const prospect = eventOf('prospect', call);
    expect(prospect.getFirstPropertyValue('summary')).toBe('Introductory call');
    expect(prospect.getFirstPropertyValue('description')).toBeNull();
  });

  it('carries a cancel’s reason as COMMENT, for every one told, and none without a reason', () => {
    const reason = 'Anna is ill; sorry, truly.';
    for (const kind of ['host-cancel', 'agency-cancel', 'prospect-cancel'] as const) {
      const event = eventOf(kind, bookedCall(), { by: 'staff', who: 'Ben Ode', reason });
      expect(event.getFirstPropertyValue('comment')).toBe(reason);
      expect(eventOf(kind, bookedCall()).getFirstPropertyValue('comment')).toBeNull();
    }
    // A move's update has no COMMENT: the call goes on.
    expect(
      eventOf('host-move', bookedCall(), { by: 'staff', reason }).getFirstPropertyValue('comment'),
    ).toBeNull();
  });

  it('cannot be given a property or an event by a name, a company, a message or a reason', () => {
    const call = bookedCall({ name: hostile, company: hostile, message: hostile });
    const event = eventOf(
      'host-cancel',
      { ...call, name: hostile },
      { by: 'staff', reason: hostile },
    );
    const names = event.getAllProperties().map((p) => p.name);
    expect(names.filter((name) => name === 'summary')).toHaveLength(1);
    expect(names.filter((name) => name === 'comment')).toHaveLength(1);
    expect(String(event.getFirstPropertyValue('summary'))).toMatch(/^Call with Eve END:VEVENT/);
    expect(String(event.getFirstPropertyValue('comment'))).not.toMatch(/[\r\n\u202e\u0000]/);
    const host = eventOf('host', { ...call, name: hostile });
    expect(host.getAllProperties('summary')).toHaveLength(1);
    expect(String(host.getFirstPropertyValue('description'))).toContain('SUMMARY:Pwned;x,y\\z');
  });
});

describe('the staff’s e-mails of a change a member made on the desk', () => {
  const changed = (kind: MailKind, change: CallChange) => {
    const item = mailItem(kind, bookedCall({ locale: 'en-GB' }));
    return formatMail({ ...item, call: { ...item.call!, change } }, setup(content)).text;
  };
  const byBen = { by: 'staff' as const, who: 'Ben Ode', reason: 'Double-booked.' };

  it('name the colleague who moved or cancelled the call', () => {
    expect(changed('host-move', byBen)).toContain('Ben Ode moved your call with Ada Lovelace.');
    expect(changed('host-move', byBen)).toContain('Moved by: Ben Ode\nReason: Double-booked.');
    expect(changed('agency-move', byBen)).toContain('was moved by Ben Ode.');
    expect(changed('host-cancel', byBen)).toContain('Ben Ode cancelled the call of Ada Lovelace');
    expect(changed('agency-cancel', byBen)).toContain('Cancelled by: Ben Ode');
    // The host a move hands the call to is told who moved it there.
    const handed = mailItem('host', bookedCall());
    const previous = { start: '2026-12-01T09:00:00Z', end: '2026-12-01T09:30:00Z' };
    expect(
      formatMail({ ...handed, call: { ...handed.call!, previous, change: byBen } }, setup(content))
        .text,
    ).toContain('Moved by: Ben Ode');
    // The prospect is told "we": the agency moved it, not a person they do not know.
    expect(changed('prospect-move', byBen)).not.toContain('Ben Ode');
    // The CLI's change names nobody: "staff", as before.
    expect(changed('host-move', { by: 'staff' })).toContain('Our staff moved your call');
  });

  it('keep a hostile member name on one line', () => {
    const text = changed('host-move', { by: 'staff', who: 'Ben\r\nBcc: x@evil.example' });
    expect(text).toContain('Moved by: Ben Bcc: x@evil.example');
    expect(text).not.toMatch(/^Bcc:/m);
  });
});
