/**
 * Visitor-written text made safe for where it goes out: one function per output (an e-mail header,
 * an e-mail body, an iCalendar property or parameter, a mailto: address, a CSV cell, the staff's
 * terminal, a page written by hand). Every value a visitor typed passes through exactly one of them on its way out, so that
 * none can start a header, a second calendar event, a spreadsheet formula or a terminal escape
 * sequence. "Control character" means Unicode category Cc: C0 (U+0000–U+001F), DEL and C1
 * (U+0080–U+009F, among them NEL and the 8-bit CSI U+009B).
 */

/** Every kind of line break: CRLF, CR, LF, NEL, LINE and PARAGRAPH SEPARATOR, and VT and FF. */
const lineBreaks = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;
/** Bidi embeddings, overrides and isolates: they reorder what is shown around them ("Trojan Source"). */
const bidiControls = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Visitor text without the explicit bidi controls (embeddings, overrides, isolates: U+202A–U+202E,
 * U+2066–U+2069), so that a name cannot reverse what is shown after it: the desk's values (which
 * its pages also isolate, each in a <bdi>), and what headerText and csvCell start from. The marks
 * (LRM, RLM, ALM) are kept: they reorder nothing beyond the neutral characters beside them, which
 * stay inside the value's own isolate or cell, and right-to-left names use them.
 */
export const withoutBidiControls = (value: string): string => value.replace(bidiControls, '');

/**
 * A NUL character is none a person types, and PostgreSQL's text cannot hold one (nor `\u0000` in
 * JSON): a post holding one was lost there ("try again in a minute", again at each retry), and
 * SQLite kept it. Each becomes U+FFFD as a request is read (../requests/body.ts), and as
 * PostgreSQL is sent a value from elsewhere (an address's query), so both engines keep the same.
 */
export const withoutNul = (value: string): string =>
  value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;

/** Half a surrogate pair on its own is no character: UTF-8 cannot carry it, so it is shown as U+FFFD. */
const wellFormed = (value: string) => value.replace(/\p{Cs}/gu, '\uFFFD');

/** At most `max` UTF-16 units of a text, never cutting a character (a surrogate pair) in half. */
export function clip(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * One line, for an e-mail header (subject, display name, Reply-To) or a one-line field of a body:
 * every line break and control character becomes a space, bidi controls are dropped, runs of white
 * space become one space, and the ends are trimmed; then at most `maxLength` characters.
 *
 * And no RFC 2047 encoded word: `=?UTF-8?B?RXZlDQpCY2M6...?=` is ASCII, so nodemailer passes it
 * into a header as it is (it takes a valid encoded word for one its caller encoded), and mail
 * programs decode it to `Eve\r\nBcc: ...`. A zero-width space after each `=` of a `=?` leaves the
 * text looking as typed, but no longer an encoded word; and, not ASCII, it makes nodemailer encode
 * the header itself, which a mail program decodes once, back to this text.
 */
export function headerText(value: string, maxLength = Infinity): string {
  const line = withoutBidiControls(wellFormed(value))
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim()
    .replaceAll('=?', '=\u200b?');
  return clip(line, maxLength).trimEnd();
}

/**
 * Text for a plain-text e-mail body (and what icsText and csvCell start from): every kind of line
 * break becomes `\n`, tabs are kept (harmless in a body, and legal in iCalendar TEXT), and every
 * other control character is removed.
 */
export function bodyText(value: string): string {
  return wellFormed(value)
    .replace(lineBreaks, '\n')
    .replace(/[^\P{Cc}\n\t]/gu, '');
}

/**
 * The value of an iCalendar TEXT property (SUMMARY, DESCRIPTION; RFC 5545 §3.3.11): bodyText, then
 * `\` `;` `,` escaped and each line break written as `\n`, so that the value stays on its property.
 */
export function icsText(value: string): string {
  return bodyText(value).replace(/[\\;,\n]/g, (char) => (char === '\n' ? '\\n' : `\\${char}`));
}

/**
 * The value of an iCalendar parameter (CN=), quoted: one line (headerText) without DQUOTE, which
 * would end the quoted value, nor backslash, which some parsers (ical.js, so Thunderbird) read as
 * an escape though RFC 5545 has none there; and with `^` doubled (RFC 6868), so that calendars that
 * read `^n` and `^'` as a line break and a quote show what was typed.
 */
export function icsParam(value: string): string {
  return `"${headerText(value.replace(/["\\]/g, '')).replaceAll('^', '^^')}"`;
}

/**
 * An address as a mailto: URI (RFC 6068), for iCalendar's ORGANIZER and ATTENDEE: what a URI
 * reserves (`?`, `#`, `%`, `/`, ...) and any control character or space is percent-encoded.
 */
export function mailtoUri(address: string): string {
  const encoded = encodeURIComponent(wellFormed(address)).replace(
    /%(24|2B|2C|3A|3B|40)/g,
    (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)),
  );
  return `mailto:${encoded}`;
}

/**
 * One CSV cell (RFC 4180): line breaks become `\n` inside the cell (as spreadsheets write them), a
 * tab a space, other control characters and bidi controls are removed; a value that a spreadsheet
 * would run as a formula (leading `=`, `+`, `-`, `@`, tab or line break) gets a `'` in front, except
 * a phone number like `+44 20 7946 0958`; and a value with a quote, comma or line break is quoted.
 */
export function csvCell(value: string): string {
  const text = withoutBidiControls(bodyText(value)).replaceAll('\t', ' ');
  const phone = /^\+[\d ]+$/.test(text);
  // A cell of spaces before the sign too: a spreadsheet that trims what it imports reads a formula.
  const safe = !phone && /^\s*[=+\-@]|^[\t\r\n]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * One line for the staff's terminal: line breaks, tabs and runs of white space become one space;
 * any other control character (ESC, BEL, C1, DEL, ...) and any bidi control becomes a visible U+FFFD,
 * so that nothing can clear the screen, move the cursor, set the title or write the clipboard, and
 * the staff can see that something was there. Then at most `maxLength` characters.
 */
export function terminalText(value: string, maxLength = Infinity): string {
  const line = wellFormed(value)
    .replace(/[\s\u0085]+/gu, ' ')
    .replace(/\p{Cc}/gu, '\uFFFD')
    .replace(bidiControls, '\uFFFD')
    .trim();
  return clip(line, maxLength).trimEnd();
}
