/**
 * The rules of the two forms, shared by the server (the authority) and the
 * islands (which mirror it so that a visitor hears about a mistake at once).
 * Pure functions of plain values: no DOM, no Node APIs.
 */

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/** What a visitor sends: an enquiry (the contact page) or a call request (Schedule a Call). */
export type EnquiryKind = 'enquiry' | 'call';

/**
 * A posted form as either side holds it, every value of a field by name: the island's FormData
 * (`getAll`), the server's parsed body. The mappings below read a form through it, once for both.
 */
export type FieldValues = (name: string) => string[];

const one = (values: FieldValues, name: string) => values(name)[0] ?? '';

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
const nonAsciiEmailMessage =
  'Enter the part before the @ without accents or special characters; many mail servers cannot deliver to it';

/** The Schedule a Call modal (spec §5): name, email and message, all required. */
export const callRequestMessages = {
  name: 'Name is required.',
  email: 'Valid email is required.',
  message: 'Please,leave us a message.',
} as const;

/** The Schedule a Call form's message for an address with accents before the @ (see emailProblem). */
export const callRequestEmailNonAsciiMessage = `${nonAsciiEmailMessage}.`;

export type CallRequestField = keyof typeof callRequestMessages;
/** A call request as the server checks it: its time (`slot`) and its captcha can be refused too. */
export type BookingField = CallRequestField | 'slot' | 'captcha';
export type CallRequest = Record<CallRequestField, string>;

export const callRequestLimits: Record<CallRequestField, number> = {
  name: 100,
  email: 254,
  message: 5000,
};

/** The call form's fields as validateCallRequest takes them. */
export const callRequestInput = (values: FieldValues): CallRequest => ({
  // The old site's modal named the field Fname; both are accepted.
  name: one(values, 'name') || one(values, 'Fname'),
  email: one(values, 'email'),
  message: one(values, 'message'),
});

export function validateCallRequest(input: CallRequest): FieldErrors<CallRequestField> {
  const errors: FieldErrors<CallRequestField> = {};
  const name = input.name.trim();
  const email = input.email.trim();
  const message = input.message.trim();
  if (!name) errors.name = callRequestMessages.name;
  else if (name.length > callRequestLimits.name)
    errors.name = `Name must be ${callRequestLimits.name} characters or fewer.`;
  const emailError = emailProblem(email);
  if (emailError)
    errors.email =
      emailError === 'non-ascii-local-part'
        ? callRequestEmailNonAsciiMessage
        : callRequestMessages.email;
  if (!message) errors.message = callRequestMessages.message;
  else if (message.length > callRequestLimits.message)
    errors.message = `Message must be ${callRequestLimits.message.toLocaleString('en-GB')} characters or fewer.`;
  return errors;
}

export const hasErrors = (errors: object) => Object.keys(errors).length > 0;

/** The enquiry form of the contact page (spec §3 and §7). */
export type EnquiryField =
  'first_name' | 'last_name' | 'email' | 'contact' | 'service' | 'project' | 'captcha';

/** An enquiry as sent (raw) or as validated (trimmed, services parsed and known). */
export interface Enquiry {
  first_name: string;
  last_name: string;
  email: string;
  contact: string;
  /** As sent: every `service` value (comma-separated, repeated, or both); validated: the chosen options. */
  service: string[];
  project: string;
}

export const enquiryLimits = { name: 100, email: 254, project: 5000 } as const;

export const enquiryMessages = {
  first_name: 'Enter your first name',
  first_name_long: `First name must be ${enquiryLimits.name} characters or fewer`,
  last_name: 'Enter your last name',
  last_name_long: `Last name must be ${enquiryLimits.name} characters or fewer`,
  email: 'Enter an email address in the correct format, like name@example.com',
  email_non_ascii: nonAsciiEmailMessage,
  contact: 'Enter a phone number of 7 to 15 digits, like +44 20 7946 0958',
  service_unknown: 'Select services from the list',
  project: `Project details must be ${enquiryLimits.project.toLocaleString('en-GB')} characters or fewer`,
  captcha: 'Confirm that you are not a robot',
} as const;

/** Digits with an optional leading + and spaces: 7 to 15 digits (ITU E.164 allows 15). */
export function isValidPhone(value: string): boolean {
  if (!/^\+?[\d ]+$/.test(value)) return false;
  const digits = value.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15;
}

/**
 * The chosen services, from one comma-separated value or repeated fields (or
 * both), trimmed and without repeats. Unknown options are reported, not kept.
 */
export function parseServices(values: string[], options: readonly string[]) {
  const chosen = new Set<string>();
  let unknown = false;
  for (const value of values) {
    for (const part of value.split(',')) {
      const name = part.trim();
      if (!name) continue;
      if (options.includes(name)) chosen.add(name);
      else unknown = true;
    }
  }
  return { chosen: options.filter((option) => chosen.has(option)), unknown };
}

/** The enquiry form's fields as validateEnquiry takes them. */
export const enquiryInput = (values: FieldValues): Enquiry => ({
  first_name: one(values, 'first_name'),
  last_name: one(values, 'last_name'),
  email: one(values, 'email'),
  contact: one(values, 'contact'),
  service: values('service'),
  project: one(values, 'project'),
});

export function validateEnquiry(
  input: Enquiry,
  serviceOptions: readonly string[],
): { enquiry: Enquiry; errors: FieldErrors<EnquiryField> } {
  const errors: FieldErrors<EnquiryField> = {};
  const enquiry: Enquiry = {
    first_name: input.first_name.trim(),
    last_name: input.last_name.trim(),
    email: input.email.trim(),
    contact: input.contact.trim(),
    service: [],
    project: input.project.trim(),
  };
  if (!enquiry.first_name) errors.first_name = enquiryMessages.first_name;
  else if (enquiry.first_name.length > enquiryLimits.name)
    errors.first_name = enquiryMessages.first_name_long;
  if (!enquiry.last_name) errors.last_name = enquiryMessages.last_name;
  else if (enquiry.last_name.length > enquiryLimits.name)
    errors.last_name = enquiryMessages.last_name_long;
  const emailError = emailProblem(enquiry.email);
  if (emailError)
    errors.email =
      emailError === 'non-ascii-local-part'
        ? enquiryMessages.email_non_ascii
        : enquiryMessages.email;
  // A way to reply is all the agency needs: the phone number and the services are optional, and
  // checked only when given.
  if (enquiry.contact && !isValidPhone(enquiry.contact)) errors.contact = enquiryMessages.contact;
  const { chosen, unknown } = parseServices(input.service, serviceOptions);
  enquiry.service = chosen;
  if (unknown) errors.service = enquiryMessages.service_unknown;
  if (enquiry.project.length > enquiryLimits.project) errors.project = enquiryMessages.project;
  return { enquiry, errors };
}

/** The honeypot: a field hidden from people, that only bots fill in. */
export const HONEYPOT_FIELD = 'fax_number';

/**
 * The hidden field that carries a submission's idempotency key: made on the visitor's device when the
 * form is first sent, the same on every retry of that submission, so that the server keeps it once.
 */
export const IDEMPOTENCY_FIELD = 'idempotency_key';

/** Whether a key is of the form the forms make (a UUID, or 32 hex digits where UUIDs are not available). */
export const isIdempotencyKey = (key: string) => /^[A-Za-z0-9-]{16,64}$/.test(key);
