/** The parts of a raw e-mail, decoded as a mail program would: enough to read what a test was sent. */

export interface MimePart {
  /** Header names lower-cased; a folded header unfolded. */
  headers: Record<string, string>;
  /** The headers in order, as sent (name and value), to see exactly which were set. */
  headerList: [string, string][];
  body: string;
}

function splitHead(raw: string) {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
  const headerList: [string, string][] = [];
  for (const line of head.replace(/\r?\n[ \t]/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headerList.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  const headers = Object.fromEntries(
    headerList.map(([name, value]) => [name.toLowerCase(), value]),
  );
  return { headers, headerList, body };
}

function decodeBody(body: string, encoding = '') {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return Buffer.from(
        body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    default:
      return body;
  }
}

/** The message itself (its top-level headers) and every leaf part below it, decoded. */
export function mimeParts(raw: string): { message: MimePart; leaves: MimePart[] } {
  const message = splitHead(raw);
  const leaves: MimePart[] = [];
  const walk = (part: MimePart) => {
    const boundary = /boundary="?([^";]+)"?/i.exec(part.headers['content-type'] ?? '')?.[1];
    if (!boundary) {
      leaves.push({
        ...part,
        body: decodeBody(part.body, part.headers['content-transfer-encoding']),
      });
      return;
    }
    const pieces = part.body.split(`--${boundary}`).slice(1);
    for (const piece of pieces) {
      if (piece.startsWith('--')) break;
      walk(splitHead(piece.replace(/^\r?\n/, '')));
    }
  };
  walk(message);
  return { message, leaves };
}

/** The calendar part of an e-mail (text/calendar), decoded. */
export const calendarOf = (raw: string) =>
  mimeParts(raw).leaves.find((part) => part.headers['content-type']?.startsWith('text/calendar'))
    ?.body;

/** The plain-text part of an e-mail, decoded. */
export const textOf = (raw: string) =>
  mimeParts(raw).leaves.find((part) => part.headers['content-type']?.startsWith('text/plain'))
    ?.body;

/** A quoted-printable text part as a person reads it (soft breaks and escapes undone); not for 7bit parts. */
export const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
