/**
 * The e-mails of a booking and of an enquiry, whatever a visitor typed: only the headers the server
 * set, the subject it meant, one calendar event, nothing of the visitor's words to the prospect.
 * (Apart from tests/unit/safe-text.test.ts so that the two, the slowest unit tests, run side by side.)
 */
import fc from 'fast-check';
import ICAL from 'ical.js';
import libmime from 'libmime';
import MailComposer from 'nodemailer/lib/mail-composer';
import { describe, expect, it } from 'vitest';
import { asciiEmail } from '../../src/domain/forms';
import { messageOptions } from '../../src/server/mail/smtp';
import { formatEnquiryMail } from '../../src/server/mail/enquiry-mails';
import { UnmailableAddress, type Mail } from '../../src/server/mail/message';
import { formatMail } from '../../src/server/mail/templates';
import { bodyText, headerText } from '../../src/server/safe-text';
import { MAIL_KINDS, type MailKind } from '../../src/server/mail/mail-jobs';
import type { StoredEnquiry } from '../../src/server/store/types';
import { booking, CONTROL, encodedWords, nasty, numRuns } from '../support/hostile-text';
import { mailItem } from '../support/records';

const FROM = 'website@agency.example';
const TO = 'sales@agency.example';
const BOOKING = {
  siteUrl: 'https://northgate-digital.example',
  secret: 'x'.repeat(40),
  confirmMs: 7_200_000,
};
/** What settings.yaml says of the agency, as the site passes it to the e-mails. */
const SETUP = {
  from: FROM,
  to: TO,
  booking: BOOKING,
  content: {
    brand: 'Northgate Digital',
    email: 'hello@northgate-digital.example',
    hosts: [{ id: 'anna', name: 'Anna Reid', email: 'anna@northgate-digital.example' }],
  },
};
const KINDS = MAIL_KINDS;
const forAgency = (kind: MailKind) => kind.startsWith('agency');
/** The agency and the host: mailed whatever the prospect's address, which is their Reply-To. */
const forStaff = (kind: MailKind) => forAgency(kind) || kind.startsWith('host');

/** The events of an invitation, read as a calendar program reads it. */
const events = (ics: string) =>
  new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent') as ICAL.Component[];

/** The raw message nodemailer makes of a Mail, from the options smtpSender gives it. */
async function compose(mail: Mail): Promise<string> {
  const composer = new MailComposer(messageOptions(mail));
  return (await composer.compile().build()).toString();
}

/** The top-level headers of a raw message, unfolded, in order. */
function topHeaders(raw: string): [string, string][] {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
  return head
    .replace(/\r\n(?=[ \t])/g, '')
    .split('\r\n')
    .map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon), line.slice(colon + 1).trim()];
    });
}

/**
 * A header value as a mail program shows it: RFC 2047 encoded words decoded, by libmime (the
 * decoder of nodemailer's own mailparser, lenient as mail programs are: any case, any charset,
 * adjacent words joined).
 */
const decodeWords = (value: string) => libmime.decodeWords(value);

/** The headers nodemailer adds to every message: a single part also says its encoding. */
const ADDED = ['Date', 'MIME-Version', 'Content-Type'];

/** Checks a composed message: exactly the headers set, and its subject as `subject` means it. */
async function expectHeaders(mail: Mail, subject: string) {
  const headers = topHeaders(await compose(mail));
  const names = headers
    .map(([name]) => name)
    .filter((name) => name !== 'Content-Transfer-Encoding');
  const set = ['From', 'To', ...(mail.replyTo ? ['Reply-To'] : []), 'Subject', 'Message-ID'];
  expect(names.sort()).toEqual([...set, ...ADDED].sort());
  expect(headers.length - names.length).toBeLessThanOrEqual(1);
  const value = (name: string) => headers.find(([header]) => header === name)![1];
  expect(decodeWords(value('Subject'))).toBe(headerText(subject, 200));
  expect(value('To')).toBe(mail.to);
  if (mail.replyTo) expect(value('Reply-To')).toBe(mail.replyTo);
}

describe('a booking, whatever the name and message', () => {
  it('gives each invitation exactly one event; only the staff’s carry the message and name the prospect', () => {
    fc.assert(
      fc.property(nasty, nasty, (name, message) => {
        const enquiry = booking(name, message);
        // A reminder carries none (tests/unit/mail.test.ts).
        for (const mail of KINDS.filter((kind) => !kind.endsWith('-reminder'))) {
          const { content } = formatMail(mailItem(mail, enquiry), SETUP).icalEvent!;
          // Lines of at most 75 octets, each ended by CRLF; no other CR or LF.
          expect(content.endsWith('\r\n')).toBe(true);
          const lines = content.slice(0, -2).split('\r\n');
          expect(lines.every((line) => !/[\r\n]/.test(line))).toBe(true);
          expect(lines.every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
          expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(1);
          const found = events(content);
          expect(found).toHaveLength(1);
          const [event] = found;
          const withdrawn = mail.endsWith('-cancel') || mail.endsWith('-lapse');
          const desk = `\n\nMove or cancel the call on the desk: ${BOOKING.siteUrl}/staff?call=${enquiry.id}`;
          expect(event!.getFirstPropertyValue('description')).toBe(
            // One text made safe whole: a message ending in CR joins the line break after it.
            forStaff(mail) ? bodyText(message + (withdrawn ? '' : desk)) : null,
          );
          expect(event!.getFirstPropertyValue('summary')).toBe(
            forStaff(mail)
              ? `Call with ${headerText(name, 100) || 'a prospect'}`
              : 'Introductory call',
          );
          const attendee = event!.getFirstProperty('attendee')!;
          // The CN is the name on one line, without the DQUOTE and backslash a parameter cannot hold.
          expect(attendee.getParameter('cn')).toBe(headerText(name.replace(/["\\]/g, '')));
          expect(attendee.getFirstValue()).toBe('mailto:ada@example.com');
          expect(event!.getAllProperties().map((p) => p.name)).not.toContain('url');
        }
      }),
      { numRuns },
    );
  });

  it('mails the prospect nothing they typed but their name', () => {
    fc.assert(
      fc.property(nasty, nasty, nasty, (name, message, other) => {
        for (const mail of ['prospect', 'prospect-cancel'] as const) {
          const one = formatMail(mailItem(mail, booking(name, message)), SETUP);
          const two = formatMail(mailItem(mail, booking(name, other)), SETUP);
          expect(one.text).toBe(two.text);
          expect(one.subject).toBe(two.subject);
          const stamp = /^DTSTAMP:.*\r\n/m;
          expect(one.icalEvent!.content.replace(stamp, '')).toBe(
            two.icalEvent!.content.replace(stamp, ''),
          );
        }
      }),
      { numRuns },
    );
  });

  it('makes e-mails with only the headers the server set, and the subject it meant', async () => {
    // The agency's zone and clock; the prospect's (New York, with no locale stored: 12-hour).
    const agencyTime = 'Tuesday, 1 December 2026, 10:00 UK time';
    const visitorTime = 'Tuesday, December 1, 2026, 5:00 AM Eastern Time';
    const subjects: Record<MailKind, (name: string) => string> = {
      agency: (name) => `Call booked: ${name}, ${agencyTime}`,
      'agency-cancel': (name) => `Call cancelled: ${name}, ${agencyTime}`,
      prospect: () => `Your call with Northgate Digital: ${visitorTime}`,
      'prospect-cancel': () => `Cancelled: your call with Northgate Digital, ${visitorTime}`,
      host: (name) => `Your call with ${name}: ${agencyTime}`,
      'host-cancel': (name) => `Call cancelled: ${name}, ${agencyTime}`,
      'agency-move': (name) => `Call moved: ${name}, now ${agencyTime}`,
      'prospect-move': () => `Moved: your call with Northgate Digital, now ${visitorTime}`,
      'host-move': (name) => `Call moved: ${name}, now ${agencyTime}`,
      'prospect-reminder': () =>
        `Reminder: your call with Northgate Digital in 24 hours, ${visitorTime}`,
      'host-reminder': (name) => `Reminder: your call with ${name} in 24 hours, ${agencyTime}`,
      'agency-lapse': (name) => `Call released, not confirmed: ${name}, ${agencyTime}`,
      'prospect-lapse': () => `Not confirmed: your call with Northgate Digital, ${visitorTime}`,
      'host-lapse': (name) => `Call released, not confirmed: ${name}, ${agencyTime}`,
    };
    const emails = ['ada@example.com', 'user@bücher.de', "O'Neil+tag@Example.CO.uk"];
    await fc.assert(
      fc.asyncProperty(nasty, nasty, fc.constantFrom(...emails), async (name, message, email) => {
        const enquiry = booking(name, message, email);
        for (const kind of KINDS) {
          const mail = formatMail(mailItem(kind, enquiry), SETUP);
          // The name is put in the subject on one line.
          await expectHeaders(mail, subjects[kind](headerText(name)));
          expect(forStaff(kind) ? mail.replyTo : mail.to).toBe(asciiEmail(email));
        }
      }),
      { numRuns },
    );
  });

  it('with an address the mail path cannot take: the agency and the host are mailed, the prospect is not', async () => {
    await fc.assert(
      fc.asyncProperty(nasty, async (email) => {
        const enquiry = booking('Ada', 'Hello', email);
        const ascii = asciiEmail(email.trim());
        for (const kind of KINDS) {
          const make = () => formatMail(mailItem(kind, enquiry), SETUP);
          if (!forStaff(kind) && !ascii) {
            expect(make).toThrow(UnmailableAddress);
            continue;
          }
          const mail = make();
          expect(forStaff(kind) ? mail.replyTo : mail.to).toBe(ascii ?? '');
          await expectHeaders(mail, mail.subject);
        }
      }),
      { numRuns },
    );
  });
});

describe('an enquiry, whatever its fields', () => {
  it('makes an e-mail with only the headers the server set, and the subject it meant', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          first: nasty,
          last: nasty,
          services: fc.array(nasty, { maxLength: 3 }),
          project: nasty,
          call: fc.boolean(),
        }),
        async ({ first, last, services, project, call }) => {
          const name = `${first} ${last}`;
          const enquiry: StoredEnquiry = {
            ...booking(name, project),
            kind: call ? 'call' : 'enquiry',
            data: call
              ? { name, email: 'grace@example.com', message: project }
              : {
                  first_name: first,
                  last_name: last,
                  email: 'grace@example.com',
                  service: services,
                  project,
                },
          };
          delete enquiry.call;
          const mail = formatEnquiryMail(enquiry, FROM, TO);
          await expectHeaders(
            mail,
            call ? `Call request from ${name}` : `Enquiry from ${name}: ${services.join(', ')}`,
          );
          // The message keeps its lines; no other field can add one.
          const lines = mail.text.split('\n');
          const fixed = call ? 10 : 13;
          expect(lines.length).toBe(fixed + bodyText(project).split('\n').length);
        },
      ),
      { numRuns },
    );
  });
});

describe('an encoded word in what a visitor typed', () => {
  /** Every top-level header of a raw message as a mail program shows it, decoded. */
  const shownHeaders = async (mail: Mail) =>
    topHeaders(await compose(mail)).map(([name, value]) => [name, decodeWords(value)] as const);
  const names = (shown: (readonly [string, string])[]) =>
    shown
      .map(([header]) => header)
      .filter((header) => header !== 'Content-Transfer-Encoding')
      .sort();

  /** The headers a message of `mail` has: those the server set, and nodemailer's own (not its encoding's). */
  const headerNames = (mail: Mail) =>
    ['From', 'To', ...(mail.replyTo ? ['Reply-To'] : []), 'Subject', 'Message-ID', ...ADDED].sort();

  /** Names that decode to a line break and a header of their own, alone and among other text. */
  const visitorNames = encodedWords.flatMap((word) => [
    word,
    `Ada ${word} Lovelace`,
    `${word}${word}`,
    `Zoë ${word}`,
  ]);

  it('is never decoded by a mail program: no line break, no header of its own, in any e-mail', async () => {
    const enquiryOf = (name: string, call: boolean): StoredEnquiry => {
      const enquiry: StoredEnquiry = {
        ...booking(name, 'Hello'),
        kind: call ? 'call' : 'enquiry',
        data: call
          ? { name, email: 'grace@example.com', message: 'Hello' }
          : {
              first_name: name,
              last_name: name,
              email: 'grace@example.com',
              service: [name],
              project: 'Hello',
            },
      };
      delete enquiry.call;
      return enquiry;
    };
    for (const name of visitorNames) {
      const mails = [
        ...KINDS.map((kind) => formatMail(mailItem(kind, booking(name, 'Hello')), SETUP)),
        formatEnquiryMail(enquiryOf(name, true), FROM, TO),
        formatEnquiryMail(enquiryOf(name, false), FROM, TO),
      ];
      for (const mail of mails) {
        const shown = await shownHeaders(mail);
        expect(names(shown)).toEqual(headerNames(mail));
        for (const [header, value] of shown)
          expect(value, `${header} of ${JSON.stringify(name)}`).not.toMatch(CONTROL);
        // The subject shows what was typed (with a zero-width space after each `=` of a `=?`),
        // and nothing in it is an encoded word still, for a second decoding to find.
        const subject = shown.find(([header]) => header === 'Subject')![1];
        expect(subject).toBe(headerText(mail.subject));
        expect(subject).not.toContain('=?');
      }
    }
  });

  it('in an address does not become the staff’s Reply-To, which cannot be changed as text can', async () => {
    const address = '=?utf-8?q?Eve=0D=0ABcc=3A_victim=40example=2Ecom?=@example.com';
    expect(asciiEmail(address)).toBe(address);
    for (const kind of KINDS.filter(forStaff)) {
      const mail = formatMail(mailItem(kind, booking('Eve', 'Hello', address)), SETUP);
      expect(mail.replyTo).toBe('');
      const shown = await shownHeaders(mail);
      expect(names(shown)).toEqual(headerNames(mail));
      for (const [header, value] of shown) expect(value, header).not.toMatch(CONTROL);
    }
    // The agency still sees it, in the body.
    expect(formatMail(mailItem('agency', booking('Eve', 'Hello', address)), SETUP).text).toContain(
      'Email: =\u200b?utf-8?q?Eve=0D=0ABcc',
    );
    expect(formatEnquiryMail(booking('Eve', 'Hello', address), FROM, TO).replyTo).toBe('');
  });
});
