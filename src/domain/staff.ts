/**
 * What the staff desk's pages show (src/components/staff/), as src/server/staff/desk.ts makes it:
 * only what a member reads there, nothing else of a stored enquiry.
 */
import { formatIn } from './call-times.ts';
import type { MetricName, Rating } from './vitals.ts';

/** A moment as the desk's pages show it, in the member's time zone: "5 Dec 2026, 14:30". */
export const deskTime = (at: string | number, timeZone: string) =>
  formatIn(new Date(at).toISOString(), timeZone, { dateStyle: 'medium', timeStyle: 'short' });

/** A call's time, host, place and standing, as every part of the desk shows it. */
export interface DeskCallBasics {
  start: string;
  end: string;
  /** Its host's name (or id), null for a call of no host. */
  host: string | null;
  /** Where it takes place: the host's video room, or the agency's place; unsaid, undefined. */
  where: string | undefined;
  confirmed: boolean;
  moves: number;
  /** Who made its last move, in words (a member's name, the prospect, the staff), and when if kept. */
  moved?: DeskMove;
}

/** A call's last move as the desk says it: "Moved by Anna Reid on 7 Dec 2026, 14:02". */
export interface DeskMove {
  by: string;
  /** Unknown for a move stored before the desk kept it: undefined. */
  at: string | undefined;
}

/** A call ahead on the desk. */
export interface DeskCall extends DeskCallBasics {
  /** The enquiry it was booked with. */
  id: string;
  name: string;
  email: string;
  message: string | undefined;
  /** The member's own call. */
  mine: boolean;
}

/** One line of the audit log: who did what, to what, when (epoch ms). */
export interface AuditLine {
  at: number;
  actor: string;
  action: string;
  subject: string | null;
  detail: string | null;
}

/** A passkey as the desk lists it to its member: when it was added and last signed in with. */
export interface MemberPasskey {
  id: string;
  addedAt: number;
  usedAt: number | null;
}

/** Field data's p75 of one page and metric. */
export interface VitalsRow {
  group: string;
  metric: MetricName;
  p75: number;
  rating: Rating;
  samples: number;
}

/**
 * The desk's lists (`?state=`): a call's life (upcoming: every call ahead, confirmed or not; of
 * those, the ones waiting for the prospect's confirmation; past, held, no-show; cancelled), and
 * the enquiries (all, new, handled).
 */
export const DESK_LISTS = [
  'upcoming',
  'unconfirmed',
  'past',
  'held',
  'no-show',
  'cancelled',
  'all',
  'new',
  'handled',
] as const;
export type DeskList = (typeof DESK_LISTS)[number];

/** The lists of calls, ordered by the call's time and grouped by its day; the rest by arrival. */
export const CALL_LISTS: readonly DeskList[] = DESK_LISTS.slice(0, DESK_LISTS.indexOf('all'));

/** A list's name on the desk. */
export const LIST_NAMES: Record<DeskList, string> = {
  upcoming: 'Calls ahead',
  unconfirmed: 'Waiting for confirmation',
  past: 'Past',
  held: 'Held',
  'no-show': 'No-show',
  cancelled: 'Cancelled',
  all: 'All enquiries',
  new: 'New',
  handled: 'Handled',
};

/** Where a call stands, as the desk and the CSV say it. */
export type CallState = 'booked' | 'moved' | 'cancelled' | 'lapsed' | 'held' | 'no-show';

/** A call's state from what is stored of it: held or a no-show first, then cancelled, moved, booked. */
export const callState = (call: {
  cancelledAt: string | null;
  lapsedAt: string | null;
  moves: number;
  outcome?: { kind: 'held' | 'no-show' } | undefined;
}): CallState =>
  call.outcome
    ? call.outcome.kind
    : call.lapsedAt
      ? 'lapsed'
      : call.cancelledAt
        ? 'cancelled'
        : call.moves > 0
          ? 'moved'
          : 'booked';

/** A member's private note on an enquiry or its call. */
export interface DeskNote {
  /** The member's name (or address). */
  author: string;
  /** Epoch ms. */
  at: number;
  body: string;
}

/** An enquiry on the desk's lists, with its call if it booked one, and its notes. */
export interface DeskItem {
  id: string;
  /** Its short reference, as the desk shows it and search finds it: the id's first 8 characters. */
  ref: string;
  kind: 'enquiry' | 'call';
  name: string;
  email: string;
  createdAt: string;
  about: string | undefined;
  handled: { at: string; by: string } | undefined;
  call?: DeskCallBasics & {
    state: CallState;
    /** Cancelled (or lapsed) at, by whom in words (unknown: undefined), and why if said. */
    cancelled?: { at: string; by: string | undefined; reason: string | undefined };
    outcome?: { kind: 'held' | 'no-show'; by: string; at: string };
    /** Not begun and not cancelled: it can still move or be cancelled. */
    ahead: boolean;
    /** Begun and not cancelled: it can be marked held or a no-show. */
    markable: boolean;
  };
  notes: DeskNote[];
}

/** How long a reference is shown: enough to tell apart, short enough to read out. */
export const REF_LENGTH = 8;

/**
 * An enquiry's reference as the desk shows it and the log writes it. Never the whole id in the
 * log: a booked call's page of that id (/schedule/booked?ref=, its older address) shows its time.
 */
export const referenceOf = (id: string) => id.slice(0, REF_LENGTH);

/**
 * Why a member's browser was refused a staff address, as its page says it
 * (src/components/staff/StaffRefusal.astro, src/server/staff/refused.ts): what happened, what is
 * safe, what to do, and the way back.
 */
export interface StaffRefusal {
  /** The page's heading. */
  title: string;
  said: string;
  /** What is safe meanwhile, if that is worth saying. */
  kept?: string;
  /** What to do about it, if the member can do anything. */
  todo?: string;
  back: { href: string; label: string };
}
