/**
 * The staff desk's reads and its own writes (../staff/desk-view.ts), written once for both engines
 * over ./db.ts: its lists a page at a time through indexes (migration 21), never every enquiry;
 * search by name, e-mail or reference; members' notes; a past call held or a no-show; enquiries
 * marked handled in bulk; and the CSV's rows in pages, by a cursor.
 */
import { CALL_LISTS, type DeskList } from '../../domain/staff.ts';
import type { Db, Dialect } from './db.ts';
import { fromRow, SELECT_ENQUIRIES } from './sql.ts';
import type { StoredEnquiry } from './types.ts';

/** What the desk asks for: a list, narrowed, a page of it. */
export interface DeskQuery {
  list: DeskList;
  /** A name, an e-mail or a reference, found anywhere in them, whatever the case; as typed. */
  text?: string;
  /** A host's id: their calls only. */
  host?: string;
  /** From this instant (inclusive) to that one (exclusive): the call's start, or the arrival. */
  from?: string;
  to?: string;
  offset: number;
  limit: number;
  /** What is ahead and what is past, in epoch ms. */
  now: number;
}

/** A member's note as stored: on enquiry `enquiryId`, by `author` (their address). */
export interface StoredNote {
  enquiryId: string;
  author: string;
  at: number;
  body: string;
}

/** Where a page of the CSV ended: the next starts after it. */
export interface ExportCursor {
  createdAt: string;
  order: number;
}

export interface StaffQueries {
  /** A page of a list, in the list's order (calls by their time, enquiries newest first). */
  list(query: DeskQuery): Promise<StoredEnquiry[]>;
  /** The notes of these enquiries, oldest first each. */
  notesOf(ids: readonly string[]): Promise<Map<string, StoredNote[]>>;
  /** A note on an enquiry; false when there is no such enquiry. */
  addNote(note: StoredNote): Promise<boolean>;
  /**
   * A call begun by `now` and not cancelled marked held or a no-show by `by` (or unmarked, null);
   * false when there is no such call.
   */
  markOutcome(
    id: string,
    outcome: 'held' | 'no-show' | null,
    by: string,
    now: number,
  ): Promise<boolean>;
  /** Enquiries marked handled by `by` at `now`, those not handled yet: the ids it marked. */
  markAllHandled(ids: readonly string[], by: string, now: number): Promise<string[]>;
  /** Every enquiry (spam too), in the order stored, `limit` after `after`; where it ended. */
  exportPage(
    after: ExportCursor | undefined,
    limit: number,
  ): Promise<{ rows: StoredEnquiry[]; next: ExportCursor | undefined }>;
}

/** An instant as the site writes a call's (to the second), so that SQLite compares them as text. */
const callInstant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Text typed to search for, as a LIKE pattern that matches it literally (`%`, `_` and `\` too). */
export const likeLiterally = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const BOOKED = `e.call_start IS NOT NULL AND e.call_cancelled_at IS NULL`;

/** Each list's condition (with `now` as its parameters) and order. */
function listSql(list: DeskList, now: string): { where: string; params: unknown[] } {
  switch (list) {
    case 'upcoming':
      return { where: `${BOOKED} AND e.call_end > ?`, params: [now] };
    case 'unconfirmed':
      return {
        where: `${BOOKED} AND e.call_confirmed_at IS NULL AND e.call_end > ?`,
        params: [now],
      };
    case 'past':
      return { where: `${BOOKED} AND e.call_end <= ?`, params: [now] };
    case 'held':
    case 'no-show':
      return { where: `${BOOKED} AND e.call_end <= ? AND e.call_outcome = ?`, params: [now, list] };
    case 'cancelled':
      return { where: `e.call_start IS NOT NULL AND e.call_cancelled_at IS NOT NULL`, params: [] };
    case 'new':
      return { where: `e.handled_at IS NULL`, params: [] };
    case 'handled':
      return { where: `e.handled_at IS NOT NULL`, params: [] };
    case 'all':
      return { where: `1 = 1`, params: [] };
  }
}

/** The order of a list: calls ahead soonest first, past and cancelled latest first, enquiries newest. */
const orderOf = (list: DeskList, dialect: Dialect) =>
  list === 'upcoming' || list === 'unconfirmed'
    ? 'e.call_start, e.id'
    : CALL_LISTS.includes(list)
      ? 'e.call_start DESC, e.id DESC'
      : `e.created_at DESC, e.${dialect.insertOrder} DESC`;

/** The narrowing of a query: its text, host and dates, as SQL and parameters. */
function narrowing(query: DeskQuery): { where: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const text = query.text?.trim().toLowerCase();
  if (text) {
    const pattern = likeLiterally(text);
    parts.push(
      `(lower(e.name) LIKE ? ESCAPE '\\' OR lower(e.email) LIKE ? ESCAPE '\\' OR e.id LIKE ? ESCAPE '\\')`,
    );
    params.push(`%${pattern}%`, `%${pattern}%`, `${pattern}%`);
  }
  if (query.host) {
    parts.push('e.call_host = ?');
    params.push(query.host);
  }
  const isCall = CALL_LISTS.includes(query.list);
  const column = isCall ? 'e.call_start' : 'e.created_at';
  const at = (iso: string) => (isCall ? callInstant(Date.parse(iso)) : new Date(iso).toISOString());
  if (query.from) {
    parts.push(`${column} >= ?`);
    params.push(at(query.from));
  }
  if (query.to) {
    parts.push(`${column} < ?`);
    params.push(at(query.to));
  }
  return { where: parts.map((part) => ` AND ${part}`).join(''), params };
}

/** The columns of an enquiry the desk reads: no join and no count of its e-mails. */
const DESK_COLUMNS = `SELECT e.*, NULL AS done_at, 0 AS attempts, NULL AS mail_failure FROM enquiries e`;

export function staffQueries(db: Db, dialect: Dialect): StaffQueries {
  return {
    async list(query) {
      const list = listSql(query.list, callInstant(query.now));
      const narrow = narrowing(query);
      const rows = await db.all(
        `${DESK_COLUMNS} WHERE NOT e.spam AND ${list.where}${narrow.where}
         ORDER BY ${orderOf(query.list, dialect)} LIMIT ? OFFSET ?`,
        [...list.params, ...narrow.params, query.limit, query.offset],
      );
      return rows.map(fromRow);
    },
    ...noteQueries(db),
    ...markQueries(db),
    async exportPage(after, limit) {
      const order = dialect.insertOrder;
      const select = SELECT_ENQUIRIES.replace('SELECT e.*', `SELECT e.${order} AS row_order, e.*`);
      const rows = await db.all(
        `${select}
         ${after ? `WHERE (e.created_at > ? OR (e.created_at = ? AND e.${order} > ?))` : ''}
         ORDER BY e.created_at, e.${order} LIMIT ?`,
        after ? [after.createdAt, after.createdAt, after.order, limit] : [limit],
      );
      const last = rows.at(-1);
      return {
        rows: rows.map(fromRow),
        next: last && {
          createdAt: fromRow(last).createdAt,
          order: Number(last.row_order),
        },
      };
    },
  };
}

/** Members' notes: added to an enquiry that exists, read for a page's enquiries. */
function noteQueries(db: Db): Pick<StaffQueries, 'notesOf' | 'addNote'> {
  return {
    async notesOf(ids) {
      const notes = new Map<string, StoredNote[]>();
      if (ids.length === 0) return notes;
      const rows = await db.all(
        `SELECT enquiry_id, author, at, body FROM enquiry_notes
         WHERE enquiry_id IN (${ids.map(() => '?').join(', ')}) ORDER BY at, id`,
        ids,
      );
      for (const row of rows) {
        const id = row.enquiry_id as string;
        notes.set(id, [
          ...(notes.get(id) ?? []),
          {
            enquiryId: id,
            author: row.author as string,
            at: Number(row.at),
            body: row.body as string,
          },
        ]);
      }
      return notes;
    },
    async addNote({ enquiryId, author, at, body }) {
      const added = await db.run(
        `INSERT INTO enquiry_notes (enquiry_id, author, at, body)
         SELECT id, ?, ?, ? FROM enquiries WHERE id = ?`,
        [author, at, body, enquiryId],
      );
      return added > 0;
    },
  };
}

/** What members mark: a past call's outcome, enquiries handled in bulk. */
function markQueries(db: Db): Pick<StaffQueries, 'markOutcome' | 'markAllHandled'> {
  return {
    async markOutcome(id, outcome, by, now) {
      const changed = await db.run(
        `UPDATE enquiries SET call_outcome = ?, call_outcome_by = ?, call_outcome_at = ?
         WHERE id = ? AND call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_start <= ?`,
        [outcome, outcome && by, outcome && now, id, callInstant(now)],
      );
      return changed > 0;
    },
    async markAllHandled(ids, by, now) {
      if (ids.length === 0) return [];
      const rows = await db.all(
        `UPDATE enquiries SET handled_at = ?, handled_by = ?
         WHERE id IN (${ids.map(() => '?').join(', ')}) AND handled_at IS NULL RETURNING id`,
        [now, by, ...ids],
      );
      return rows.map((row) => row.id as string);
    },
  };
}
