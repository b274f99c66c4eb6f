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
