/**
 * The rules of the contact page's enquiry form (spec §3 and §7), for the server and the form's
 * island alike. Pure functions of plain values: no DOM, no Node APIs.
 */
import {
  emailProblem,
  nonAsciiEmailMessage,
  firstValue,
  type FieldErrors,
  type FieldValues,
} from './forms.ts';
import { grouped } from './numbers.ts';

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
  project: `Project details must be ${grouped(enquiryLimits.project)} characters or fewer`,
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
  first_name: firstValue(values, 'first_name'),
  last_name: firstValue(values, 'last_name'),
  email: firstValue(values, 'email'),
  contact: firstValue(values, 'contact'),
  service: values('service'),
  project: firstValue(values, 'project'),
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
