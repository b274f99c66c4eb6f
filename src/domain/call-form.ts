/**
 * The rules of the Schedule a Call form (spec §5), for the server and the dialog's island alike.
 * Pure functions of plain values: no DOM, no Node APIs.
 */
import {
  emailProblem,
  nonAsciiEmailMessage,
  firstValue,
  type FieldErrors,
  type FieldValues,
} from './forms.ts';
import { grouped } from './numbers.ts';

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
  name: firstValue(values, 'name') || firstValue(values, 'Fname'),
  email: firstValue(values, 'email'),
  message: firstValue(values, 'message'),
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
    errors.message = `Message must be ${grouped(callRequestLimits.message)} characters or fewer.`;
  return errors;
}
