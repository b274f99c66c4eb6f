/**
 * The desk's lists (/staff?state=…&q=…&host=…&from=…&to=…&page=…): what the address asks for,
 * read a page at a time through the store's StaffQueries (../store/staff-queries.ts), and turned
 * into what the page shows (domain/staff.ts DeskItem); and the marks a member posts from them
 * (a note, held or no-show, enquiries handled in bulk).
 */
import { Temporal as Polyfill } from 'temporal-polyfill';
import { isCalendarDate } from '../../domain/booking.ts';
import {
  CALL_LISTS,
  DESK_LISTS,
  referenceOf,
  callState,
  type DeskItem,
  type DeskList,
} from '../../domain/staff.ts';
import { bodyText, clip, headerText, withoutBidiControls } from '../safe-text.ts';
import type { StoredNote } from '../store/types.ts';
import type { StoredEnquiry } from '../store/types.ts';
import type { StaffMember } from './access.ts';

// The platform's Temporal where it has one, else the polyfill (as ../booking/free-times.ts).
const Temporal = ((globalThis as { Temporal?: typeof Polyfill }).Temporal ??
  Polyfill) as typeof Polyfill;

/** Items on a page of the desk. */
export const PAGE_SIZE = 25;
/** The last page an address may ask for: further is no list a member reads. */
const MAX_PAGE = 4000;
/** The longest search text and note kept. */
const MAX_SEARCH = 100;
export const MAX_NOTE = 2000;
/** Enquiries marked handled by one post at most (a page's worth, and then some). */
export const MAX_BULK = 100;

/** What the address asks the desk for. */
export interface DeskFilters {
  list: DeskList;
  q: string;
  host: string;
  /** Days ('YYYY-MM-DD') in the member's zone, inclusive; '' for none. */
  from: string;
  to: string;
  page: number;
}

/** The desk's address for `filters` at `page` ('?state=…'), leaving out what is unset. */
export function deskAddress(filters: DeskFilters, page = filters.page): string {
  const params = new URLSearchParams({ state: filters.list });
  for (const name of ['q', 'host', 'from', 'to'] as const)
    if (filters[name]) params.set(name, filters[name]);
  if (page > 1) params.set('page', String(page));
  return `/staff?${params}`;
}

/**
 * The filters of the desk's address: an unknown list, host, date or page is left out, not refused
 * (an old bookmark still opens the desk). No list named: upcoming calls, or every enquiry when
 * something is searched for.
 */
export function deskFilters(url: URL, hostIds: ReadonlySet<string>): DeskFilters {
  const get = (name: string) => url.searchParams.get(name) ?? '';
  const q = clip(headerText(get('q')), MAX_SEARCH);
  const host = hostIds.has(get('host')) ? get('host') : '';
  const day = (name: string) => (isCalendarDate(get(name)) && validDay(get(name)) ? get(name) : '');
  const [from, to] = [day('from'), day('to')];
  const state = get('state');
  const list = (DESK_LISTS as readonly string[]).includes(state)
    ? (state as DeskList)
    : q || host || from || to
      ? 'all'
      : 'upcoming';
  const page = Number(get('page'));
  return {
    list,
    q,
    host,
    from,
    to,
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
  };
}

/**
 * A day of the calendar, in the years a desk looks at: year 0 (or the day before 0001-01-01, in a
 * zone east of UTC) is none PostgreSQL keeps, and the desk's query of it failed.
 */
const validDay = (day: string) => {
  if (day < '1000-01-01') return false;
  try {
    Temporal.PlainDate.from(day, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
};

/** The instant a day begins in `timeZone`, as ISO. */
export const dayStart = (day: string, timeZone: string) =>
  Temporal.PlainDate.from(day).toZonedDateTime({ timeZone }).toInstant().toString();

/** The store's query of `filters` for a member in `timeZone`: one more than a page, to know of a next. */
export function deskQuery(filters: DeskFilters, timeZone: string, now: number) {
  const next = (day: string) => Temporal.PlainDate.from(day).add({ days: 1 }).toString();
  return {
    list: filters.list,
    ...(filters.q && { text: filters.q }),
    ...(filters.host && { host: filters.host }),
    ...(filters.from && { from: dayStart(filters.from, timeZone) }),
    // Nothing is after the last day a date may name; its next day (+010000-01-01) would sort first.
    ...(filters.to && filters.to !== '9999-12-31' && { to: dayStart(next(filters.to), timeZone) }),
    offset: (filters.page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE + 1,
    now,
  };
}

/** Visitor text as the desk shows it: no bidi control (each value is also in a <bdi> there). */
const shown = withoutBidiControls;

/** Who did something, in words: a member's name, the prospect, the staff (the CLI). */
export const whoIn =
  (members: ReadonlyMap<string, StaffMember>) =>
  (by: string): string =>
    by === 'prospect'
      ? 'the prospect'
      : by === 'staff'
        ? 'the staff'
        : (members.get(by)?.name ?? shown(by));

/**
 * Who made a call's last move and when, as the desk says it: the member by name, else the prospect
 * or the staff (the CLI's, or a member's before step 29 kept who); none if who is unknown.
 */
export const movedOf = (call: NonNullable<StoredEnquiry['call']>, who: (by: string) => string) =>
  call.movedBy && {
    moved: { by: who(call.movedByMember ?? call.movedBy), at: call.movedAt },
  };

/** What the desk needs to say of an item beyond the store's record. */
export interface ItemContext {
  who: (by: string) => string;
  hostName: (hostId: string) => string;
  where: (hostId: string | null) => string | undefined;
  now: number;
}

/** An enquiry as the desk's lists show it, with its call and its notes. */
export function deskItem(e: StoredEnquiry, notes: StoredNote[], context: ItemContext): DeskItem {
  const about = [e.data.project, e.data.message].find(
    (text): text is string => typeof text === 'string' && text !== '',
  );
  return {
    id: e.id,
    ref: referenceOf(e.id),
    kind: e.kind,
    name: shown(e.name),
    email: shown(e.email),
    createdAt: e.createdAt,
    about: about === undefined ? undefined : shown(about),
    handled: e.handled && { at: e.handled.at, by: context.who(e.handled.by) },
    ...(e.call && { call: deskCallOf(e.call, context) }),
    notes: notes.map((note) => ({
      author: context.who(note.author),
      at: note.at,
      body: shown(note.body),
    })),
  };
}

/** Whether a call can be marked held or a no-show at `now`: begun, and not cancelled. */
export const isMarkable = (call: NonNullable<StoredEnquiry['call']>, now: number) =>
  Date.parse(call.start) <= now && !call.cancelledAt;

function deskCallOf(call: NonNullable<StoredEnquiry['call']>, context: ItemContext) {
  const begun = Date.parse(call.start) <= context.now;
  return {
    start: call.start,
    end: call.end,
    host: call.host && context.hostName(call.host),
    where: context.where(call.host),
    confirmed: call.confirmedAt !== null,
    moves: call.moves,
    ...movedOf(call, context.who),
    state: callState(call),
    ...(call.cancelledAt && {
      cancelled: {
        at: call.cancelledAt,
        // Released unconfirmed, or cancelled before who cancelled was kept: no one to name.
        by: call.lapsedAt || !call.cancelledBy ? undefined : context.who(call.cancelledBy),
        reason: call.cancelReason ? shown(call.cancelReason) : undefined,
      },
    }),
    ...(call.outcome && { outcome: { ...call.outcome, by: context.who(call.outcome.by) } }),
    ahead: !begun && !call.cancelledAt,
    markable: isMarkable(call, context.now),
  };
}

/** Whether a list is of calls (grouped by the call's day) rather than enquiries (by arrival). */
export const isCallList = (list: DeskList) => CALL_LISTS.includes(list);

/** A note as a member typed it, kept: plain text (line breaks kept), trimmed, MAX_NOTE at most. */
export const noteText = (typed: string) => clip(bodyText(typed).trim(), MAX_NOTE).trim();
