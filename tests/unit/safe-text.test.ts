/**
 * Visitor-written text on its way out (src/server/safe-text.ts), for any text at all (property-based,
 * fast-check): each safe-text function, the calendar writer, the staff CLI's listing and its CSV
 * (parsed back as RFC 4180). The e-mails, whatever was typed: tests/unit/mail-safety.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldLine } from '../../src/server/mail/invitation';
import { formatCsv, formatListing } from '../../src/server/enquiries/listing';
import {
  bodyText,
  clip,
  csvCell,
  headerText,
  icsParam,
  icsText,
  mailtoUri,
  terminalText,
  withoutBidiControls,
} from '../../src/server/safe-text';
import type { StoredEnquiry } from '../../src/server/store/types';

import { anyCodePoint, anyText, booking, CONTROL, nasty, numRuns } from '../support/hostile-text';

describe('the safe-text functions, for any text', () => {
  it('headerText: one trimmed line, no control at all, no encoded word, the same when applied again', () => {
    fc.assert(
      fc.property(anyText, fc.nat(300), (value, max) => {
        const line = headerText(value, max);
        expect(line).not.toMatch(CONTROL);
        expect(line).not.toContain('=?');
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

  it('withoutBidiControls: no embedding, override or isolate left, everything else as typed', () => {
    const explicit = /[\u202a-\u202e\u2066-\u2069]/u;
    fc.assert(
      fc.property(anyText, (value) => {
        const text = withoutBidiControls(value);
        expect(text).not.toMatch(explicit);
        expect(text).toBe([...value].filter((char) => !explicit.test(char)).join(''));
      }),
      { numRuns },
    );
    // A right-to-left name keeps its letters and marks.
    expect(withoutBidiControls('\u202eEve\u202c \u05e9\u05dc\u05d5\u05dd\u200f')).toBe(
      'Eve \u05e9\u05dc\u05d5\u05dd\u200f',
    );
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
    expect(csvCell(' -2+3')).toBe("' -2+3");
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
      fc.property(fc.string({ unit: anyCodePoint }), fc.nat(40), (value, max) => {
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
      fc.property(fc.string({ unit: anyCodePoint, maxLength: 300 }), (value) => {
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
// A spreadsheet that trims each cell as it imports (LibreOffice may) reads one that begins with
// spaces too.
const isFormula = (cell: string) => /^\s*[=+\-@]|^[\t\r\n]/.test(cell) && !/^\+[\d ]+$/.test(cell);

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
      // Who moved it: a member's address as stored (hostile too: the store keeps what it is given).
      mover: nasty,
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
                ...(e.moves > 0 && {
                  movedBy: 'staff' as const,
                  movedAt: '2026-11-23T11:00:00.000Z',
                  movedByMember: e.mover,
                }),
              }
            : undefined,
        mails: { sent: e.moves, waiting: 2, failed: e.mailed ? 0 : 1 },
      };
    }),
  { minLength: 1, maxLength: 5 },
);

describe('the staff CLI, whatever was stored', () => {
  it('says of a call released unconfirmed that it lapsed, and when (call_status)', () => {
    const stored = booking('Ada', 'Hello');
    const lapsedAt = '2026-11-23T12:00:00.000Z';
    const lapsed = { ...stored, call: { ...stored.call!, cancelledAt: lapsedAt, lapsedAt } };
    const [header, row] = parseCsv(formatCsv([lapsed]));
    expect(row![header!.indexOf('call_status')]).toBe(`lapsed ${lapsedAt}`);
    expect(formatListing([lapsed])).toMatch(
      /\n {2}call: [^\n]*\(lapsed: not confirmed in time\), with anna\n/,
    );
  });

  it('names a call’s host as the desk does, beside their id, or leaves the name empty', () => {
    const stored = booking('Ada', 'Hello');
    const hosts = new Map([['anna', 'Anna Reid']]);
    const [header, row] = parseCsv(formatCsv([stored], hosts));
    expect(row![header!.indexOf('call_host')]).toBe('anna');
    expect(row![header!.indexOf('call_host_name')]).toBe('Anna Reid');
    expect(parseCsv(formatCsv([stored]))[1]![header!.indexOf('call_host_name')]).toBe('');
    expect(formatListing([stored], hosts)).toContain(', with Anna Reid (anna)');
  });

  it('says who made a call’s last move and when, when the store knows', () => {
    const stored = booking('Ada', 'Hello');
    const moved = (moves: number, made: Partial<NonNullable<StoredEnquiry['call']>>) =>
      formatListing([{ ...stored, call: { ...stored.call!, moves, ...made } }]);
    const at = '2026-11-23T11:00:00.000Z';
    expect(
      moved(1, { movedBy: 'staff', movedByMember: 'anna@northgate.example', movedAt: at }),
    ).toContain(`, moved 1 time (by anna@northgate.example at ${at})\n`);
    expect(moved(3, { movedBy: 'prospect', movedAt: at })).toContain(
      `, moved 3 times (last by its prospect at ${at})\n`,
    );
    expect(moved(2, { movedBy: 'staff', movedAt: at })).toContain(
      `, moved 2 times (last by the staff at ${at})\n`,
    );
    // Moved before the store kept who: as before.
    expect(moved(2, {})).toContain(', moved 2 times\n');
  });

  it('lists each enquiry on its own lines, without a control character', () => {
    fc.assert(
      fc.property(storedEnquiries, anyText, (enquiries, hostName) => {
        // A host's name comes from the content, which an editor types: hostile too.
        const listing = formatListing(enquiries, new Map([['anna', hostName]]));
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

  it('exports CSV whose every row parses back to its 29 cells, none a formula', () => {
    fc.assert(
      fc.property(storedEnquiries, anyText, (enquiries, hostName) => {
        const rows = parseCsv(formatCsv(enquiries, new Map([['anna', hostName]])));
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
          'call_confirmed_at',
          'handled',
          'handled_by',
          'handled_at',
          'notes',
          'call_state',
          'cancelled_by',
          'cancel_reason',
          'call_host_name',
          'moved_by',
          'moved_at',
        ]);
        for (const [i, row] of rows.slice(1).entries()) {
          expect(row).toHaveLength(29);
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
