/**
 * Visitor-written text on its way out (src/server/safe-text.ts), for any text at all (property-based,
 * fast-check): the e-mails' headers, the calendar invitations (parsed back with ical.js), the staff
 * CLI's listing and its CSV (parsed back as RFC 4180).
 */
import fc from 'fast-check';
import ICAL from 'ical.js';
import MailComposer from 'nodemailer/lib/mail-composer';
import { describe, expect, it } from 'vitest';
import { formatCallTime } from '../../src/domain/call-times';
import { foldLine } from '../../src/server/mail/invitation';
import { formatCsv, formatListing } from '../../src/server/enquiries/listing';
import { messageOptions } from '../../src/server/mail/smtp';
import {
  formatEnquiryMail,
  formatMail,
  UnmailableAddress,
  type Mail,
} from '../../src/server/mail/templates';
import {
  bodyText,
  clip,
  csvCell,
  headerText,
  icsParam,
  icsText,
  mailtoUri,
  terminalText,
} from '../../src/server/safe-text';
import { MAIL_KINDS, type MailKind, type StoredEnquiry } from '../../src/server/store/types';
import { asciiEmail } from '../../src/domain/forms';
import { mailItem } from '../support/records';

const numRuns = 200;

/** What an attacker would try: every kind of line break, terminal escapes, iCalendar syntax. */
const pieces = [
  '\r',
  '\n',
  '\r\n',
  '\u0085',
  '\u2028',
  '\u2029',
  '\t',
  '\u000b',
  '\u000c',
  '\u001b',
  '\u0007',
  '\u009b',
  '\u0000',
  '\u007f',
  '\u202e',
  '\u2066',
  '\ud800',
  ';',
  ',',
  '\\',
  ':',
  '"',
  '^',
  '^n',
  "^'",
  '=',
  '+',
  '-',
  '@',
  ' ',
  'é',
  '😀',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'URL:https://evil.example/meet',
  '\u001b[2J',
  '\u001b]52;c;ZXZpbA==\u0007',
  'Bcc: victim@example.com',
  'X-Injected: 1',
];
const nasty = fc
  .array(
    fc.oneof(
      fc.constantFrom(...pieces),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 16 },
  )
  .map((parts) => parts.join(''));
/** Any text: nasty pieces, or any code points at all. */
const anyText = fc.oneof(nasty, fc.string({ unit: 'binary', maxLength: 120 }));

/** Category Cc, the line and paragraph separators, and the bidi controls. */
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe('the safe-text functions, for any text', () => {
  it('headerText: one trimmed line, no control at all, the same when applied again', () => {
    fc.assert(
      fc.property(anyText, fc.nat(300), (value, max) => {
        const line = headerText(value, max);
        expect(line).not.toMatch(CONTROL);
        expect(line).not.toMatch(/\s\s|^\s|\s$/u);
        expect(line.length).toBeLessThanOrEqual(max);
        expect(headerText(line)).toBe(line);
        expect(line.isWellFormed()).toBe(true);
      }),
      { numRuns },
    );
  });

  it('bodyText: line breaks as \\n, tabs kept, no other control', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const text = bodyText(value);
        expect(text.replace(/[\n\t]/g, '')).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
        expect(bodyText(text)).toBe(text);
        expect(text.split('\n').length).toBe(
          value.replace(/\r\n/g, '\n').split(/[\n\v\f\r\u0085\u2028\u2029]/).length,
        );
      }),
      { numRuns },
    );
  });

  it('icsText: escaped per RFC 5545, reads back as bodyText', () => {
    const unescape = (text: string) =>
      text.replace(/\\([\\;,nN])/g, (_, char: string) =>
        char.toLowerCase() === 'n' ? '\n' : char,
      );
    fc.assert(
      fc.property(anyText, (value) => {
        const escaped = icsText(value);
        expect(escaped.replace(/\t/g, '')).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
        // Every ; , and \ is escaped: what is left after removing the escapes has none.
        expect(escaped.replace(/\\[\\;,n]/g, '')).not.toMatch(/[\\;,]/);
        expect(unescape(escaped)).toBe(bodyText(value));
      }),
      { numRuns },
    );
  });

  it('icsParam: always quoted, no quote or control inside', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const param = icsParam(value);
        expect(param).toMatch(/^"[^"]*"$/);
        expect(param).not.toMatch(CONTROL);
      }),
      { numRuns },
    );
    expect(icsParam('Ada "x" Love\\lace\r\n^n')).toBe('"Ada x Lovelace ^^n"');
  });

  it('terminalText: no control character survives, not even a line break', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const line = terminalText(value);
        expect(line).not.toMatch(CONTROL);
        expect(line.isWellFormed()).toBe(true);
      }),
      { numRuns },
    );
    expect(terminalText('Eve\u001b[2J')).toBe('Eve\ufffd[2J');
    expect(terminalText('a\u001b]52;c;ZXZpbA==\u0007b')).toBe('a\ufffd]52;c;ZXZpbA==\ufffdb');
    expect(terminalText('\u009b31mred\u202eevil')).toBe('\ufffd31mred\ufffdevil');
    expect(terminalText(' two\r\nlines\u2028\tand  more ')).toBe('two lines and more');
  });

  it('csvCell: one cell that parses back, never a formula', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const rows = parseCsv(`${csvCell(value)}\r\n`);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toHaveLength(1);
        const cell = rows[0]![0]!;
        expect(cell.replaceAll('\n', '')).not.toMatch(CONTROL);
        expect(isFormula(cell)).toBe(false);
      }),
      { numRuns },
    );
    expect(csvCell('=HYPERLINK("http://evil.example")')).toBe(
      '"\'=HYPERLINK(""http://evil.example"")"',
    );
    expect(csvCell('+44 20 7946 0958')).toBe('+44 20 7946 0958');
    expect(csvCell('\u0000=1+1')).toBe("'=1+1");
    expect(csvCell('a\r\nb\rc')).toBe('"a\nb\nc"');
  });

  it('mailtoUri: a URI with nothing to break the line or the property', () => {
    expect(mailtoUri('user@xn--bcher-kva.de')).toBe('mailto:user@xn--bcher-kva.de');
    expect(mailtoUri("o'neil+tag@example.com")).toBe("mailto:o'neil+tag@example.com");
    expect(mailtoUri('a?b#c%d/e@example.com')).toBe('mailto:a%3Fb%23c%25d%2Fe@example.com');
    fc.assert(
      fc.property(anyText, (value) => {
        expect(mailtoUri(value)).toMatch(/^mailto:[\x21-\x7e]*$/);
      }),
      { numRuns },
    );
  });

  it('clip never cuts a character in half', () => {
    expect(clip('ab😀', 3)).toBe('ab');
    expect(clip('ab😀', 4)).toBe('ab😀');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(40), (value, max) => {
        const cut = clip(value, max);
        expect(cut.isWellFormed()).toBe(true);
        if (value.length <= max) expect(cut).toBe(value);
        else expect(value.startsWith(cut) && cut.length >= max - 1).toBe(true);
      }),
      { numRuns },
    );
  });
});

describe('the calendar writer', () => {
  it('folds at 75 octets, never inside a UTF-8 character, and unfolds to the line', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (value) => {
        const line = `DESCRIPTION:${value.replace(/[\r\n]/g, '')}`;
        const folded = foldLine(line);
        expect(folded.replace(/\r\n /g, '')).toBe(line);
        for (const part of Buffer.from(folded).toString('latin1').split('\r\n')) {
          const bytes = Buffer.from(part, 'latin1');
          expect(bytes.length).toBeLessThanOrEqual(75);
          expect(() => decoder.decode(bytes)).not.toThrow();
        }
      }),
      { numRuns },
    );
  });
});

/** The Schedule a Call form's booking of 1 December 2026, 10:00 UTC, as stored. */
const START = '2026-12-01T10:00:00Z';
const booking = (name: string, message: string, email = 'ada@example.com'): StoredEnquiry => ({
  id: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b',
  kind: 'call',
  name,
  email,
  data: {
    name,
    email,
    message,
    slot: START,
    time_zone: 'America/New_York',
    agency_time_zone: 'Europe/London',
    call_title: 'Introductory call',
  },
  clientIp: '127.0.0.1',
  userAgent: 'test',
  spam: false,
  createdAt: '2026-11-23T10:00:00.000Z',
  mailedAt: null,
  mailAttempts: 0,
  mailFailure: null,
  call: {
    start: START,
    end: '2026-12-01T10:30:00Z',
    cancelledAt: null,
    host: 'anna',
    sequence: 0,
    moves: 0,
  },
});

const FROM = 'website@agency.example';
const TO = 'sales@agency.example';
const BOOKING = { siteUrl: 'https://northgate-digital.example', secret: 'x'.repeat(40) };
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

/** A header value as a mail program shows it: RFC 2047 encoded-words (UTF-8) decoded. */
function decodeWords(value: string): string {
  const word = /=\?utf-8\?([qb])\?([^?]*)\?=/gi;
  return value.replace(/\?=[ \t]+=\?/g, '?==?').replace(/(?:=\?utf-8\?[qb]\?[^?]*\?=)+/gi, (run) =>
    Buffer.concat(
      [...run.matchAll(word)].map(([, encoding, text]) =>
        encoding!.toLowerCase() === 'b'
          ? Buffer.from(text!, 'base64')
          : Buffer.from(
              text!
                .replace(/_/g, ' ')
                .replace(/=([0-9A-F]{2})/gi, (_, hex: string) =>
                  String.fromCharCode(parseInt(hex, 16)),
                ),
              'latin1',
            ),
      ),
    ).toString('utf8'),
  );
}

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
  it('gives each invitation exactly one event; only the agency’s carries the message', () => {
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
          expect(event!.getFirstPropertyValue('description')).toBe(
            forAgency(mail) ? bodyText(message) : null,
          );
          expect(event!.getFirstPropertyValue('summary')).toBe('Introductory call');
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
    const agencyTime = `${formatCallTime(START, 'Europe/London')} (Europe/London)`;
    const visitorTime = `${formatCallTime(START, 'America/New_York')} (America/New_York)`;
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

/** A strict RFC 4180 parser: rows of cells; throws on a stray quote, CR or LF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let state: 'start' | 'plain' | 'quoted' | 'closed' = 'start';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (state === 'quoted') {
      if (char !== '"') cell += char;
      else if (text[i + 1] === '"') ((cell += '"'), i++);
      else state = 'closed';
    } else if (char === ',' || (char === '\r' && text[i + 1] === '\n')) {
      row.push(cell);
      cell = '';
      state = 'start';
      if (char === '\r') (rows.push(row), (row = []), i++);
    } else if (state === 'start' && char === '"') state = 'quoted';
    else if (state === 'closed' || char === '"' || char === '\r' || char === '\n')
      throw new Error(`Stray ${JSON.stringify(char)} at ${i}`);
    else ((cell += char), (state = 'plain'));
  }
  if (state !== 'start' || row.length > 0) throw new Error('The last row has no CRLF.');
  return rows;
}

/** A cell a spreadsheet would run as a formula (a phone number like +44 20 ... is not). */
const isFormula = (cell: string) => /^[=+\-@\t\r\n]/.test(cell) && !/^\+[\d ]+$/.test(cell);

const storedEnquiries = fc.array(
  fc
    .record({
      name: nasty,
      email: nasty,
      contact: nasty,
      service: fc.array(nasty, { maxLength: 3 }),
      text: nasty,
      kind: fc.constantFrom('enquiry' as const, 'call' as const),
      booked: fc.boolean(),
      cancelled: fc.boolean(),
      spam: fc.boolean(),
      mailed: fc.boolean(),
      moves: fc.integer({ min: 0, max: 3 }),
    })
    .map((e): StoredEnquiry => {
      const stored = booking(e.name, e.text, e.email);
      return {
        ...stored,
        kind: e.kind,
        spam: e.spam,
        mailedAt: e.mailed ? '2026-11-23T10:01:00.000Z' : null,
        data:
          e.kind === 'call'
            ? { ...stored.data }
            : { email: e.email, contact: e.contact, service: e.service, project: e.text },
        call:
          e.kind === 'call' && e.booked
            ? {
                ...stored.call!,
                cancelledAt: e.cancelled ? '2026-11-24T09:00:00.000Z' : null,
                moves: e.moves,
              }
            : undefined,
        mails: { sent: e.moves, waiting: 2, failed: e.mailed ? 0 : 1 },
      };
    }),
  { minLength: 1, maxLength: 5 },
);

describe('the staff CLI, whatever was stored', () => {
  it('lists each enquiry on its own lines, without a control character', () => {
    fc.assert(
      fc.property(storedEnquiries, (enquiries) => {
        const listing = formatListing(enquiries);
        const lines = listing.split('\n');
        for (const line of lines) expect(line).not.toMatch(CONTROL);
        // One heading line per enquiry, the rest its own indented fields, then the count.
        expect(lines.at(-1)).toMatch(/^\d+ enquir(y|ies)\.$/);
        expect(lines.at(-2)).toBe('');
        const body = lines.slice(0, -2);
        expect(body.filter((line) => !line.startsWith('  '))).toHaveLength(enquiries.length);
        for (const line of body.filter((l) => l.startsWith('  ')))
          expect(line).toMatch(/^ {2}(call|ref|e-mails|phone|services|message|mailed): /);
      }),
      { numRuns },
    );
  });

  it('exports CSV whose every row parses back to its 18 cells, none a formula', () => {
    fc.assert(
      fc.property(storedEnquiries, (enquiries) => {
        const rows = parseCsv(formatCsv(enquiries));
        expect(rows).toHaveLength(enquiries.length + 1);
        expect(rows[0]).toEqual([
          'id',
          'received',
          'kind',
          'name',
          'email',
          'phone',
          'services',
          'message',
          'mailed',
          'call_start',
          'call_end',
          'call_status',
          'mail_failure',
          'call_host',
          'call_moves',
          'mails_sent',
          'mails_waiting',
          'mails_failed',
        ]);
        for (const [i, row] of rows.slice(1).entries()) {
          expect(row).toHaveLength(18);
          for (const cell of row) {
            expect(isFormula(cell)).toBe(false);
            expect(cell.replaceAll('\n', '')).not.toMatch(CONTROL);
          }
          // The name reads back as typed, but for its control characters (and a guard against formulas).
          const name = bodyText(enquiries[i]!.name)
            .replaceAll('\t', ' ')
            .replace(/[\u202a-\u202e\u2066-\u2069]/g, '');
          expect([name, `'${name}`]).toContain(row[3]);
        }
      }),
      { numRuns },
    );
  });
});
