/**
 * The rules of the two forms, shared by the server (the authority) and the
 * islands (which mirror it so that a visitor hears about a mistake at once).
 * Pure functions of plain values: no DOM, no Node APIs.
 */

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/** A practical address check: one @, no spaces, a dot in the domain, within RFC 5321's 254 characters. */
export function isValidEmail(value: string): boolean {
  return (
    value.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value) && !value.includes('..')
  );
}

/** The Schedule a Call modal (spec §5): name, email and message, all required. */
export const callRequestMessages = {
  name: 'Name is required.',
  email: 'Valid email is required.',
  message: 'Please,leave us a message.',
} as const;

export type CallRequestField = keyof typeof callRequestMessages;
/** A call request as the server checks it: its time (`slot`) and its captcha can be refused too. */
export type BookingField = CallRequestField | 'slot' | 'captcha';
export type CallRequest = Record<CallRequestField, string>;

export const callRequestLimits: Record<CallRequestField, number> = {
  name: 100,
  email: 254,
  message: 5000,
};

export function validateCallRequest(input: CallRequest): FieldErrors<CallRequestField> {
  const errors: FieldErrors<CallRequestField> = {};
  const name = input.name.trim();
  const email = input.email.trim();
  const message = input.message.trim();
  if (!name) errors.name = callRequestMessages.name;
  else if (name.length > callRequestLimits.name)
    errors.name = `Name must be ${callRequestLimits.name} characters or fewer.`;
  if (!isValidEmail(email)) errors.email = callRequestMessages.email;
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
  if (!isValidEmail(enquiry.email)) errors.email = enquiryMessages.email;
  // A way to reply is all the agency needs: the phone number and the services are optional, and
  // checked only when given.
  if (enquiry.contact && !isValidPhone(enquiry.contact)) errors.contact = enquiryMessages.contact;
  const { chosen, unknown } = parseServices(input.service, serviceOptions);
  enquiry.service = chosen;
  if (unknown) errors.service = enquiryMessages.service_unknown;
  if (enquiry.project.length > enquiryLimits.project) errors.project = enquiryMessages.project;
  return { enquiry, errors };
}

/**
 * The hidden field that carries a submission's idempotency key: made on the visitor's device when the
 * form is first sent, the same on every retry of that submission, so that the server keeps it once.
 */
export const IDEMPOTENCY_FIELD = 'idempotency_key';

/** Whether a key is of the form the forms make (a UUID, or 32 hex digits where UUIDs are not available). */
export const isIdempotencyKey = (key: string) => /^[A-Za-z0-9-]{16,64}$/.test(key);
