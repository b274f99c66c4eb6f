/**
 * The e-mails that are no call's: the agency's notice of an enquiry (and of a call asked for without
 * a time), and a staff member's sign-in link.
 */
import { field, paragraph, replyAddress, subjectLine, type Mail } from './message.ts';
import type { MailSetup } from './mail-item.ts';
import type { StoredEnquiry } from '../store/types.ts';

/** The agency's notice of an enquiry without a booked call: what the visitor wrote, to reply to. */
export function formatEnquiryMail(enquiry: StoredEnquiry, from: string, to: string): Mail {
  const { data } = enquiry;
  const isCall = enquiry.kind === 'call';
  const subject = isCall
    ? `Call request from ${enquiry.name}`
    : `Enquiry from ${enquiry.name}: ${([] as string[]).concat(data.service ?? []).join(', ')}`;
  const lines = isCall
    ? [
        'A visitor asked for a call through the website.',
        '',
        field('Name', data.name),
        field('Email', data.email),
        '',
        'Message:',
        paragraph(data.message),
      ]
    : [
        'A new enquiry arrived through the website.',
        '',
        field('First name', data.first_name),
        field('Last name', data.last_name),
        field('Email', data.email),
        field('Phone', data.contact),
        field('Services', data.service),
        '',
        'About the project:',
        paragraph(data.project, '(not given)'),
      ];
  lines.push('', '--', `Reference: ${enquiry.id}`, `Received: ${enquiry.createdAt}`);
  return {
    from,
    to,
    // The agency's notice goes out even for an address that cannot be mailed: without a Reply-To.
    replyTo: replyAddress(enquiry.email),
    subject: subjectLine(subject),
    text: lines.join('\n'),
    messageId: `<${enquiry.id}@enquiries.invalid>`,
  };
}

/**
 * The e-mail of a staff member's sign-in link (../staff/links.ts): to them alone, the link valid
 * for `minutes`, once. `messageId` is random: nothing in a header names the link.
 */
export function formatSignInMail(
  {
    to,
    link,
    minutes,
    messageId,
  }: { to: string; link: string; minutes: number; messageId: string },
  { from, to: agency, content }: Pick<MailSetup, 'from' | 'to' | 'content'>,
): Mail {
  return {
    from,
    to,
    replyTo: agency,
    subject: subjectLine(`Sign in to the ${content.brand} desk`),
    text: [
      `Someone (we hope you) asked to sign in to the ${content.brand} staff desk with this address.`,
      '',
      'Open this link to sign in:',
      link,
      '',
      `It works once, for ${minutes} minutes. If you did not ask for it, ignore this e-mail: nobody can sign in without the link.`,
    ].join('\n'),
    messageId,
  };
}
