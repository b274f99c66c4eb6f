/**
 * An e-mail as the sender takes it (Mail), and the rules every e-mail's text follows: a header or a
 * field on one line, a visitor's free text with its line breaks, a visitor's address as mail is
 * sent to it or replied to (../safe-text.ts says what each leaves out).
 */
import { bodyText, headerText } from '../safe-text.ts';
import { asciiEmail } from '../../domain/forms.ts';

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
export const subjectLine = (value: string) => headerText(value, 200);

/** A body line `Label: value`, the value on one line, so that it cannot pass for another field. */
export const field = (label: string, value: string | string[] | undefined) => {
  const text = headerText(Array.isArray(value) ? value.join(', ') : (value ?? ''));
  return `${label}: ${text || '(not given)'}`;
};

/** A visitor's free text (a message), its line breaks kept, for a body. */
export const paragraph = (value: string | string[] | undefined, empty = '') =>
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
export function replyAddress(address: string): string {
  const ascii = asciiEmail(address.trim());
  return ascii && !ascii.includes('=?') ? ascii : '';
}

/** A visitor's address as mail is sent to it: domain in ASCII (see asciiEmail). */
export function mailableAddress(address: string): string {
  const ascii = asciiEmail(address.trim());
  if (!ascii) throw new UnmailableAddress();
  return ascii;
}
