/**
 * What the two forms share, the server (the authority) and the islands (which mirror it so that a
 * visitor hears about a mistake at once) alike: how a posted form is read, the address rule, the
 * honeypot and the idempotency key. Each form's own rules are beside it (./call-form.ts,
 * ./enquiry-form.ts), so that a page that shows one form loads the other's rules nowhere.
 * Pure functions of plain values: no DOM, no Node APIs.
 */

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/** What a visitor sends: an enquiry (the contact page) or a call request (Schedule a Call). */
export type EnquiryKind = 'enquiry' | 'call';

/**
 * A posted form as either side holds it, every value of a field by name: the island's FormData
 * (`getAll`), the server's parsed body. Each form's mapping (`callRequestInput`, `enquiryInput`) reads
 * a form through it, once for both.
 */
export type FieldValues = (name: string) => string[];

/** A field's first value, '' when it has none. */
export const firstValue = (values: FieldValues, name: string) => values(name)[0] ?? '';

/** An RFC 5322 atom: the ASCII characters the part of an address before the @ may hold between dots. */
const atom = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const dotAtom = new RegExp(`^${atom}(?:\\.${atom})*$`);
/** A label of a host name in ASCII: 1 to 63 letters, digits and hyphens, no hyphen at either end. */
const hostLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A domain in its ASCII form (punycode for an internationalised one, lower case, as URL makes it),
 * or undefined when it is not a host name mail can go to: at least two labels, no IP address.
 */
function asciiDomain(domain: string): string | undefined {
  // Of ASCII only letters, digits, hyphens and dots: URL would read others as a port, a path, ...
  if (!/^(?:[A-Za-z0-9.-]|[^\x00-\x7f])+$/.test(domain)) return undefined;
  let host: string;
  try {
    host = new URL(`http://${domain}`).hostname;
  } catch {
    return undefined;
  }
  const labels = host.split('.');
  if (host.length > 253 || labels.length < 2 || !labels.every((label) => hostLabel.test(label)))
    return undefined;
  // A top-level domain begins with a letter: this leaves out IP addresses (URL reads 1.2.3.4 as one).
  return /^[a-z]/.test(labels[labels.length - 1]!) ? host : undefined;
}

/** Why an address cannot be mailed: its form, or (said plainly) a part before the @ that is not ASCII. */
export type EmailProblem = 'format' | 'non-ascii-local-part';

function checkEmail(value: string): { address: string } | { problem: EmailProblem } {
  const at = value.lastIndexOf('@');
  if (at < 0 || value.length > 254) return { problem: 'format' };
  const local = value.slice(0, at);
  const domain = asciiDomain(value.slice(at + 1));
  if (!domain || local.length > 64) return { problem: 'format' };
  if (!dotAtom.test(local)) {
    // Accents, other scripts: the address looks right to its owner, but SMTP servers without
    // SMTPUTF8 (most) refuse it. Anything else wrong with it is a matter of form.
    const asAscii = local.replace(/[^\x00-\x7f]/g, 'a');
    return {
      problem: asAscii !== local && dotAtom.test(asAscii) ? 'non-ascii-local-part' : 'format',
    };
  }
  const address = `${local}@${domain}`;
  return address.length <= 254 ? { address } : { problem: 'format' };
}

/**
 * The address rule of both forms, which is what the mail path can send to: before the @ an RFC 5322
 * dot-atom of ASCII characters (at most 64); after it a host name, which may be internationalised
 * (bücher.de); at most 254 characters in all.
 */
export function isValidEmail(value: string): boolean {
  return 'address' in checkEmail(value);
}

/** What is wrong with an address, or undefined when it is valid. */
export function emailProblem(value: string): EmailProblem | undefined {
  const checked = checkEmail(value);
  return 'problem' in checked ? checked.problem : undefined;
}

/**
 * A valid address as the mail path sends to it: its domain in ASCII (punycode) and lower case,
 * user@bücher.de as user@xn--bcher-kva.de; undefined for an address that is not valid.
 */
export function asciiEmail(value: string): string | undefined {
  const checked = checkEmail(value);
  return 'address' in checked ? checked.address : undefined;
}

/** Why an address with accents before the @ is refused: it looks right to its owner. */
export const nonAsciiEmailMessage =
  'Enter the part before the @ without accents or special characters; many mail servers cannot deliver to it';

export const hasErrors = (errors: object) => Object.keys(errors).length > 0;

/** The honeypot: a field hidden from people, that only bots fill in. */
export const HONEYPOT_FIELD = 'fax_number';

/**
 * The hidden field that carries a submission's idempotency key: made on the visitor's device when the
 * form is first sent, the same on every retry of that submission, so that the server keeps it once.
 */
export const IDEMPOTENCY_FIELD = 'idempotency_key';

/** Whether a key is of the form the forms make (a UUID, or 32 hex digits where UUIDs are not available). */
export const isIdempotencyKey = (key: string) => /^[A-Za-z0-9-]{16,64}$/.test(key);
