/**
 * What the desk's actions leave behind that names people: the audit line's words (who, what, the
 * prospect's name, a move's old and new times, the reason) and the member a call's e-mails name
 * for a move or a cancel. Each value is one line (safe-text's headerText): nothing typed can
 * start another line of the audit page, an e-mail header or a calendar property.
 */
import { headerText } from '../safe-text.ts';
import { formatCallTime } from '../../domain/call-times.ts';
import type { CallChange } from '../store/types.ts';
import type { StaffMember } from './access.ts';

/** The longest reason kept: a line, not a letter. */
export const REASON_MAX = 300;

/** A reason typed on the desk as it is kept, told and shown again: one line, at most REASON_MAX. */
export const reasonText = (reason: string) => headerText(reason, REASON_MAX);

/** A prospect's name as an audit line holds it. */
const prospectName = (name: string) => headerText(name, 100) || '(no name)';

/** A change of the desk's, for its e-mails: the staff's, by this member, with the reason if said. */
export function deskChange(member: StaffMember, reason: string): CallChange {
  const said = reasonText(reason);
  return {
    by: 'staff',
    who: headerText(member.name, 200) || member.email,
    ...(said && { reason: said }),
  };
}

/** What an audit line of a call's move says: whose call, from when to when (the member's zone), why. */
export function moveDetail(
  name: string,
  from: { start: string },
  to: { start: string },
  timeZone: string,
  reason?: string,
): string {
  const when = (start: string) => formatCallTime(start, timeZone);
  return withReason(`${prospectName(name)}, from ${when(from.start)} to ${when(to.start)}`, reason);
}

/** What an audit line of a call's cancel says: whose call, of when (the member's zone), why. */
export function cancelDetail(
  name: string,
  call: { start: string },
  timeZone: string,
  reason?: string,
): string {
  return withReason(`${prospectName(name)}, ${formatCallTime(call.start, timeZone)}`, reason);
}

/** What an audit line of an enquiry marked handled (or new) says: whose. */
export const enquiryDetail = (name: string) => prospectName(name);

const withReason = (text: string, reason?: string) => {
  const said = reasonText(reason ?? '');
  return said ? `${text}; reason: ${said}` : text;
};
