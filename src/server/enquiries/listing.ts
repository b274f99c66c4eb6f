/**
 * What the staff CLI (./cli.ts) prints: the enquiries as a listing for the terminal, or as CSV.
 * Pure functions of the stored enquiries; every value goes through ./safe-text.ts (terminalText for
 * the listing, csvCell for the CSV), so that nothing a visitor typed can drive the staff's terminal
 * or run as a spreadsheet formula.
 */
import { callZones, formatCallTime } from '../../domain/call-times.ts';
import { lastMover } from '../booking/refusals.ts';
import { csvCell, terminalText } from '../safe-text.ts';
import type { StoredEnquiry } from '../store/types.ts';
import type { StoredNote } from '../store/types.ts';
import { callState } from '../../domain/staff.ts';

/**
 * A call's state: booked, moved (it stands, at another time than booked), lapsed (released, not
 * confirmed in time) and when, or cancelled and when.
 */
const callStatus = (e: StoredEnquiry) =>
  !e.call
    ? ''
    : e.call.lapsedAt
      ? `lapsed ${e.call.lapsedAt}`
      : e.call.cancelledAt
        ? `cancelled ${e.call.cancelledAt}`
        : e.call.moves > 0
          ? 'moved'
          : 'booked';

/** How an enquiry's e-mails stand: '3 sent, 4 waiting, 1 failed' (the counts that are not 0). */
const mailsLine = (e: StoredEnquiry) =>
  e.mails
    ? (['sent', 'waiting', 'failed'] as const)
        .filter((state) => e.mails![state] > 0)
        .map((state) => `${e.mails![state]} ${state}`)
        .join(', ')
    : '';

/** A booked call's time in the agency's zone (as it was when booked), and whether it still stands. */
const callTime = (e: StoredEnquiry) =>
  e.call
    ? `${formatCallTime(e.call.start, callZones(e.data).agency, callZones(e.data).agencyLocale)}${e.call.lapsedAt ? ' (lapsed: not confirmed in time)' : e.call.cancelledAt ? ' (cancelled)' : ''}`
    : '';

/** An enquiry's notes in one cell: each on its own lines, after its time and author. */
const notesCell = (notes: readonly StoredNote[] = []) =>
  notes.map((n) => `${new Date(n.at).toISOString()} ${n.author}: ${n.body}`).join('\n\n');

/**
 * The hosts' names by id: the live site's, then those a publish removed (as the store kept them). A
 * host it does not know is left unnamed: the id stands beside it.
 */
export type HostNames = ReadonlyMap<string, string>;

/** The names of `hosts` by id. */
export const hostNamesOf = (hosts: readonly { id: string; name: string }[]): HostNames =>
  new Map(hosts.map((host) => [host.id, host.name]));

/** The CSV's columns, in their order; the listing shows phone to mailed (slice(5, 9)) too. */
const columns: [
  string,
  (e: StoredEnquiry, notes?: readonly StoredNote[], hosts?: HostNames) => string,
][] = [
  ['id', (e) => e.id],
  ['received', (e) => e.createdAt],
  ['kind', (e) => e.kind],
  ['name', (e) => e.name],
  ['email', (e) => e.email],
  ['phone', (e) => String(e.data.contact ?? '')],
  ['services', (e) => ([] as string[]).concat(e.data.service ?? []).join('; ')],
  ['message', (e) => String(e.data.project ?? e.data.message ?? '')],
  ['mailed', (e) => e.mailedAt ?? (e.spam ? 'spam' : '')],
  // Added with bookings, after the earlier columns so that a sheet built on those still reads right.
  ['call_start', (e) => e.call?.start ?? ''],
  ['call_end', (e) => e.call?.end ?? ''],
  ['call_status', callStatus],
  // Added with undeliverable mail: which e-mail failed for good, and why.
  ['mail_failure', (e) => e.mailFailure ?? ''],
  // Added with hosts: who takes the call (its id in availability.yaml; empty before there were hosts).
  ['call_host', (e) => e.call?.host ?? ''],
  // Added with moves and reminders: how often the call moved, and how its e-mails stand.
  ['call_moves', (e) => (e.call ? String(e.call.moves) : '')],
  ['mails_sent', (e) => String(e.mails?.sent ?? '')],
  ['mails_waiting', (e) => String(e.mails?.waiting ?? '')],
  ['mails_failed', (e) => String(e.mails?.failed ?? '')],
  // Added with confirmation: when the prospect confirmed the call (empty while it waits).
  ['call_confirmed_at', (e) => e.call?.confirmedAt ?? ''],
  // Added with the desk's lists: what the staff did with it, and how its call ended.
  ['handled', (e) => (e.handled ? 'yes' : 'no')],
  ['handled_by', (e) => e.handled?.by ?? ''],
  ['handled_at', (e) => e.handled?.at ?? ''],
  ['notes', (_, notes) => notesCell(notes)],
  ['call_state', (e) => (e.call ? callState(e.call) : '')],
  ['cancelled_by', (e) => (e.call?.cancelledAt ? (e.call.cancelledBy ?? '') : '')],
  ['cancel_reason', (e) => e.call?.cancelReason ?? ''],
  // Added for the sales team's sheet: the host by name, beside call_host's id.
  ['call_host_name', (e, _, hosts) => (e.call?.host ? (hosts?.get(e.call.host) ?? '') : '')],
  // Added with the desk's movers: who made the call's last move (a member's address, 'staff' from
  // the CLI, 'prospect'; empty if unknown), and when (empty for a move kept before).
  ['moved_by', (e) => e.call?.movedByMember ?? e.call?.movedBy ?? ''],
  ['moved_at', (e) => e.call?.movedAt ?? ''],
];

/** The CSV's header row (RFC 4180: CRLF after it). */
export const csvHeader = () => `${columns.map(([name]) => csvCell(name)).join(',')}\r\n`;

/** Enquiries as rows of the CSV, each with its notes (by enquiry id) and its host's name. */
export const csvRows = (
  enquiries: readonly StoredEnquiry[],
  notes: ReadonlyMap<string, readonly StoredNote[]> = new Map(),
  hosts: HostNames = new Map(),
) =>
  enquiries
    .map(
      (e) => `${columns.map(([, get]) => csvCell(get(e, notes.get(e.id), hosts))).join(',')}\r\n`,
    )
    .join('');

/** The enquiries as CSV (RFC 4180: CRLF after every row), a header row first. */
export function formatCsv(enquiries: readonly StoredEnquiry[], hosts?: HostNames): string {
  return csvHeader() + csvRows(enquiries, undefined, hosts);
}

/** A call's host as the CLI names them: 'Anna Reid (anna)', or the id alone. */
export const hostLabel = (id: string, hosts: HostNames) => {
  const name = hosts.get(id);
  return name ? `${name} (${id})` : id;
};

/** The enquiries as the terminal shows them, oldest first, then how many; lines without a final `\n`. */
export function formatListing(
  enquiries: readonly StoredEnquiry[],
  hosts: HostNames = new Map(),
): string {
  if (enquiries.length === 0) return 'No enquiries stored.';
  const lines: string[] = [];
  for (const e of enquiries) {
    const what = e.call ? 'Booked call' : e.kind === 'call' ? 'Call request' : 'Enquiry';
    lines.push(
      `${terminalText(e.createdAt)}  ${what} from ${terminalText(e.name)} <${terminalText(e.email)}>`,
    );
    if (e.call) {
      // A member by their address: the store's, written for a terminal.
      const mover = lastMover(e.call, undefined, (address) => terminalText(address));
      const moved = e.call.moves
        ? `, moved ${e.call.moves} time${e.call.moves === 1 ? '' : 's'}${mover ? ` (${e.call.moves > 1 ? 'last ' : ''}by ${mover})` : ''}`
        : '';
      const confirmed = e.call.cancelledAt
        ? ''
        : e.call.confirmedAt
          ? ', confirmed'
          : ', not confirmed yet';
      lines.push(
        `  call: ${terminalText(callTime(e))}${confirmed}${e.call.host ? `, with ${terminalText(hostLabel(e.call.host, hosts))}` : ''}${moved}`,
        `  ref: ${terminalText(e.id)}`,
      );
    }
    const mails = mailsLine(e);
    if (mails) lines.push(`  e-mails: ${mails}`);
    if (e.mailFailure) lines.push(`  not delivered: ${terminalText(e.mailFailure, 200)}`);
    for (const [name, get] of columns.slice(5, 9)) {
      const value = terminalText(get(e), 200);
      if (value) lines.push(`  ${name}: ${value}`);
    }
  }
  lines.push('', `${enquiries.length} enquir${enquiries.length === 1 ? 'y' : 'ies'}.`);
  return lines.join('\n');
}
