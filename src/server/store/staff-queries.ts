/**
 * The staff desk's reads and its own writes (../staff/desk-view.ts), written once for both engines
 * over ./db.ts: its lists a page at a time through indexes (migration 21), never every enquiry;
 * search by name, e-mail or reference; members' notes; a past call held or a no-show; enquiries
 * marked handled in bulk; and the CSV's rows in pages, by a cursor.
 */
import { CALL_LISTS, type DeskList } from '../../domain/staff.ts';
import { clip } from '../safe-text.ts';
import type { Db, Dialect } from './db.ts';
import { fromRow, SELECT_ENQUIRIES } from './sql.ts';
import type { DeskQuery, StaffQueries, StoredNote } from './types.ts';

/** An instant as the site writes a call's (to the second), so that SQLite compares them as text. */
const callInstant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The longest word kept, and the most words of a search. */
const WORD_LENGTH = 64;
const MAX_TERMS = 6;

/** Letters that do not come apart into a letter and its accents, as people type them without. */
const PLAIN: Record<string, string> = { ß: 'ss', ø: 'o', æ: 'ae', œ: 'oe', ł: 'l', đ: 'd', ı: 'i' };

/**
 * A word as found whatever its accents: lower case, its letters without their marks ("josé" and
 * "Jose" are "jose"), its apostrophes a keyboard's. A change here (or to searchWords) needs the
 * words stored made again: a migration step of `searchWordsOfAll` of its own, as step 25 is.
 */
export const folded = (word: string) =>
  word
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßøæœłđı]/g, (letter) => PLAIN[letter]!)
    // A typographer's apostrophe (O’Brien), as a keyboard types it.
    .replace(/[’‘ʼ]/g, "'");

/**
 * An enquiry's search words, as migration 25 made every stored one's: its name's words, its
 * e-mail whole, its two halves and its parts, and its id, in lower case; each word without its
 * accents; and a name's parts at its hyphens and apostrophes ("jean-luc", "luc"; "o'brien",
 * "obrien", "brien"), so that a word is found however it is typed.
 */
export function searchWords({ id, name, email }: { id: string; name: string; email: string }) {
  const address = email.toLowerCase();
  const at = address.indexOf('@');
  // Control and format characters (a NUL, a bidi override) part words: no one types them.
  const wordsOf = (text: string) => text.replace(/[\p{Cc}\p{Cf}]/gu, ' ').split(/\s+/u);
  const names = wordsOf(name.toLowerCase()).flatMap((w) => [
    w,
    w.replace(/['’]/g, ''),
    ...w.split(/[-'’]/),
  ]);
  const others = wordsOf(
    [
      address,
      at < 0 ? '' : address.slice(0, at),
      address.slice(at + 1),
      address.replace(/[@.+_-]/g, ' '),
      id.toLowerCase(),
    ].join(' '),
  );
  const words = [...names, ...others];
  return [
    ...new Set([...words, ...words.map(folded)].filter(Boolean).map((w) => clip(w, WORD_LENGTH))),
  ];
}

/** Enquiries read at a time as every one's search words are made again; words written by one statement. */
const REINDEX_PAGE = 500;
const WORDS_PER_INSERT = 100;

/**
 * The statements that store enquiries' search words (`searchWords`), WORDS_PER_INSERT to a
 * statement; a word stored already is left as it is.
 */
export function searchWordInserts(
  enquiries: readonly { id: string; name: string; email: string }[],
): { sql: string; params: unknown[] }[] {
  const words = enquiries.flatMap((e) => searchWords(e).map((word) => [word, e.id]));
  return Array.from({ length: Math.ceil(words.length / WORDS_PER_INSERT) }, (_, i) => {
    const run = words.slice(i * WORDS_PER_INSERT, (i + 1) * WORDS_PER_INSERT);
    return {
      sql: `INSERT INTO enquiry_words (word, enquiry_id) VALUES ${run.map(() => '(?, ?)').join(', ')}
       ON CONFLICT DO NOTHING`,
      params: run.flat(),
    };
  });
}

/**
 * Every stored enquiry's search words made again by `searchWords`, a page of enquiries at a time
 * in the order of their ids (a migration's step of code, ./migrations.ts): the words they had stay,
 * and those they lacked are added.
 */
export function* searchWordsOfAll(): Generator<
  { sql: string; params: unknown[] },
  void,
  Record<string, unknown>[]
> {
  for (let after = ''; ;) {
    const page = yield {
      sql: 'SELECT id, name, email FROM enquiries WHERE id > ? ORDER BY id LIMIT ?',
      params: [after, REINDEX_PAGE],
    };
    yield* searchWordInserts(
      page.map((row) => ({ id: String(row.id), name: String(row.name), email: String(row.email) })),
    );
    if (page.length < REINDEX_PAGE) return;
    after = String(page.at(-1)!.id);
  }
}

/**
 * What was typed, as words to find the beginning of (lower case, without accents; `%` or `_` are
 * letters like any).
 */
export const searchTerms = (text: string) =>
  [
    ...new Set(
      text
        .split(/\s+/u)
        .filter(Boolean)
        .map((w) => clip(folded(w), WORD_LENGTH)),
    ),
  ].slice(0, MAX_TERMS);

/** The words that begin with `term`: from it to it followed by the last character (byte order). */
const range = (term: string) => [term, `${term}\u{10FFFF}`];

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

/**
 * The order of a list: calls ahead soonest first, past and cancelled latest first, enquiries newest
 * (then last stored first: `insertOrder`, the engine's column of it).
 */
const orderOf = (list: DeskList, insertOrder: string) =>
  list === 'upcoming' || list === 'unconfirmed'
    ? 'e.call_start, e.id'
    : CALL_LISTS.includes(list)
      ? 'e.call_start DESC, e.id DESC'
      : `e.created_at DESC, e.${insertOrder} DESC`;

/** Each term found at the beginning of one of the enquiry's words (through their index). */
const HAS_WORD = `EXISTS (SELECT 1 FROM enquiry_words w
  WHERE w.enquiry_id = e.id AND w.word >= ? AND w.word < ?)`;

/** The narrowing of a query: its words, host and dates, as SQL and parameters. */
function narrowing(query: DeskQuery, terms: string[]): { where: string; params: unknown[] } {
  const parts: string[] = terms.map(() => HAS_WORD);
  const params: unknown[] = terms.flatMap(range);
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
const DESK_COLUMNS = `SELECT e.*, NULL AS done_at, 0 AS attempts, NULL AS mail_failure`;

/** Matches counted at most, to find a search's rarest word: fewer, and the query starts from it. */
const RARE = 500;

/**
 * Rows of a list read in its order, at most, for a search none of whose words is rare: common words
 * are mostly common together, and a page's matches are then among the list's first rows.
 */
const NEAR = 2_000;

/**
 * When they are not (each word common, few enquiries with all): the words that begin fewer words
 * than this are looked up in the words' index, their enquiries intersected; every word more
 * common, and the whole list is read in its order.
 */
const FEW = 50_000;

/** Where a list's rows come from, as SQL and its parameters. */
interface Source {
  from: string;
  params: unknown[];
}

const EVERY_ENQUIRY: Source = { from: 'FROM enquiries e', params: [] };

/** The enquiries with a word beginning with each of `terms`, found through the words' index. */
const withWords = (terms: string[]): Source => ({
  from: `FROM (${terms
    .map(
      (_, i) => `SELECT ${i === 0 ? 'DISTINCT ' : ''}enquiry_id FROM enquiry_words w${i}
      WHERE w${i}.word >= ? AND w${i}.word < ?`,
    )
    .join(' INTERSECT ')}) m
    JOIN enquiries e ON e.id = m.enquiry_id`,
  params: terms.flatMap(range),
});

/** How many words begin with each of `terms`, each counted up to `cap`. */
async function wordCounts(db: Db, terms: string[], cap: number) {
  const counts = new Map<string, number>();
  for (const term of terms) {
    const [row] = await db.all(
      `SELECT CAST(count(*) AS INTEGER) AS n FROM (SELECT 1 FROM enquiry_words
         WHERE word >= ? AND word < ? LIMIT ${cap}) m`,
      range(term),
    );
    counts.set(term, Number(row!.n));
  }
  return counts;
}

/** The word of `terms` that begins the fewest words, if one begins fewer than `cap`. */
async function rarestTerm(db: Db, terms: string[], cap: number): Promise<string | undefined> {
  const counts = [...(await wordCounts(db, terms, cap))].filter(([, n]) => n < cap);
  return counts.sort(([, a], [, b]) => a - b)[0]?.[0];
}

export function staffQueries(db: Db, dialect: Dialect): StaffQueries {
  return {
    async list(query) {
      const terms = searchTerms(query.text ?? '');
      const list = listSql(query.list, callInstant(query.now));
      const narrow = narrowing(query, terms);
      /** The page of the list's rows from `source` that match the query, in `order`. */
      const page = async (source: Source, order = orderOf(query.list, dialect.insertOrder)) =>
        (
          await db.all(
            `${DESK_COLUMNS} ${source.from} WHERE NOT e.spam AND ${list.where}${narrow.where}
             ORDER BY ${order} LIMIT ? OFFSET ?`,
            [...source.params, ...list.params, ...narrow.params, query.limit, query.offset],
          )
        ).map(fromRow);
      if (terms.length === 0) return page(EVERY_ENQUIRY);
      // A rare word: its few enquiries, through the words' index, rather than the list's order,
      // which would walk every enquiry to find them.
      const rare = await rarestTerm(db, terms, RARE);
      if (rare) return page(withWords([rare]));
      // The list's first rows, in its order; enough matches there are the page.
      if (query.offset + query.limit <= NEAR) {
        const near = await page(
          {
            from: `FROM (SELECT e.*, e.${dialect.insertOrder} AS list_order FROM enquiries e
              WHERE NOT e.spam AND ${list.where}
              ORDER BY ${orderOf(query.list, dialect.insertOrder)} LIMIT ${NEAR}) e`,
            params: list.params,
          },
          orderOf(query.list, 'list_order'),
        );
        if (near.length === query.limit) return near;
      }
      const counts = await wordCounts(db, terms, FEW);
      const few = terms.filter((term) => counts.get(term)! < FEW);
      return page(few.length > 0 ? withWords(few) : EVERY_ENQUIRY);
    },
    ...noteQueries(db),
    ...markQueries(db),
    ...hostQueries(db),
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
    async markOutcome(id, { shown, to }, by, now) {
      // Compared and set in one statement: of two presses at once from pages showing the same
      // mark, one changes it; the other finds the new mark and changes nothing. An Unmark keeps
      // who and when too, for a colleague's press refused after it.
      const changed = await db.run(
        `UPDATE enquiries SET call_outcome = ?, call_outcome_by = ?, call_outcome_at = ?
         WHERE id = ? AND call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_start <= ?
           AND COALESCE(call_outcome, 'none') = ? AND COALESCE(call_outcome, 'none') <> ?`,
        [to, by, now, id, callInstant(now), shown ?? 'none', to ?? 'none'],
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

/**
 * The hosts kept who are not among `live` (as many parameters) and have a call, found through the
 * index of each host's calls (migration 27): no list of calls is read, on each load of the desk.
 */
export const formerHostsSql = (live: number) =>
  `SELECT h.id, h.name FROM hosts_known h
   WHERE ${live ? `h.id NOT IN (${Array.from({ length: live }, () => '?').join(', ')}) AND` : ''}
     EXISTS (SELECT 1 FROM enquiries e WHERE e.call_host = h.id)
   ORDER BY h.name, h.id`;

/** The hosts' names, kept past a publish that removes one (migration 27). */
function hostQueries(db: Db): Pick<StaffQueries, 'rememberHosts' | 'formerHosts'> {
  return {
    async rememberHosts(given) {
      // One row an id (PostgreSQL refuses to change a row twice in one statement).
      const hosts = [...new Map(given.map((host) => [host.id, host])).values()];
      if (hosts.length === 0) return;
      // Written only when new or renamed: every process does this as a publish goes live.
      await db.run(
        `INSERT INTO hosts_known (id, name) VALUES ${hosts.map(() => '(?, ?)').join(', ')}
         ON CONFLICT (id) DO UPDATE SET name = excluded.name
         WHERE hosts_known.name <> excluded.name`,
        hosts.flatMap((host) => [host.id, host.name]),
      );
    },
    async formerHosts(live) {
      const rows = await db.all(formerHostsSql(live.length), [...live]);
      return rows.map((row) => ({ id: row.id as string, name: row.name as string }));
    },
  };
}
