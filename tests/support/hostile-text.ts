/**
 * Text an attacker would send, for the property tests of what the server writes from visitors'
 * text (tests/unit/safe-text.test.ts, tests/unit/mail-safety.test.ts), and the booking they test with.
 */
import fc from 'fast-check';
import type { StoredEnquiry } from '../../src/server/store/types';

export const numRuns = 200;

/**
 * RFC 2047 encoded words that a mail program decodes to a line break and a header of their own
 * (`Eve\r\nBcc: victim@example.com`): B and Q, upper and lower case, another charset, one split
 * over two words (decoded as one, the space between them dropped), one glued to a word.
 */
export const encodedWords = [
  '=?UTF-8?B?RXZlDQpCY2M6IHZpY3RpbUBleGFtcGxlLmNvbQ==?=',
  '=?utf-8?b?RXZlDQpCY2M6IHZpY3RpbUBleGFtcGxlLmNvbQ==?=',
  '=?UTF-8?Q?Eve=0D=0ABcc=3A_victim=40example=2Ecom?=',
  '=?utf-8?q?Eve=0D=0ABcc:_victim@example.com?=',
  '=?iso-8859-1?q?Eve=0D=0AX-Injected:_1?=',
  '=?UTF-8*en?Q?Eve=0A=0ABcc:_victim@example.com?=',
  '=?UTF-8?Q?Eve=0D=0A?= =?UTF-8?Q?Bcc:_victim@example.com?=',
  '=?UTF-8?B?RXZlDQo=?=\t=?UTF-8?B?QmNjOiB2aWN0aW1AZXhhbXBsZS5jb20=?=',
  'Eve=?utf-8?q?=0D=0ABcc:_victim@example.com?=',
  '=?utf-8?q?=0D=0ABcc:_victim@example.com?=é',
];

/** What an attacker would try: every kind of line break, terminal escapes, iCalendar syntax. */
export const pieces = [
  ...encodedWords,
  '=?',
  '?=',
  '?Q?',
  '?b?',
  '=0D=0A',
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
/** Surrogates, which fast-check's `unit: 'binary'` leaves out too (a lone one is among the pieces). */
const SURROGATES = 0xe000 - 0xd800;

/**
 * Any code point, as fast-check's `unit: 'binary'` gives one, and as likely: without the table of
 * all 1.1 million that fast-check builds to take one back (1.3 s of processor time a worker).
 */
export const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff - SURROGATES }).map(
  (n) => String.fromCodePoint(n < 0xd800 ? n : n + SURROGATES),
  (value) => {
    const point = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (
      point === undefined ||
      String.fromCodePoint(point) !== value ||
      (point >= 0xd800 && point < 0xe000)
    )
      throw new Error('Not one code point');
    return point < 0xd800 ? point : point - SURROGATES;
  },
);

export const nasty = fc
  .array(
    fc.oneof(
      fc.constantFrom(...pieces),
      fc.string({ unit: anyCodePoint, maxLength: 6 }),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 16 },
  )
  .map((parts) => parts.join(''));
/** Any text: nasty pieces, or any code points at all. */
export const anyText = fc.oneof(nasty, fc.string({ unit: anyCodePoint, maxLength: 120 }));

/** Category Cc, the line and paragraph separators, and the bidi controls. */
export const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

export const START = '2026-12-01T10:00:00Z';
export const booking = (
  name: string,
  message: string,
  email = 'ada@example.com',
): StoredEnquiry => ({
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
    confirmedAt: null,
    lapsedAt: null,
  },
});
