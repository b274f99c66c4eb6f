/**
 * The store's schema, one list for both engines: each step is SQL both run, or the statements each
 * engine needs where their dialects differ (SQLite's TEXT instants and rebuilt tables, PostgreSQL's
 * TIMESTAMPTZ and ALTERs). An engine runs the steps that have its SQL, in order, and counts only
 * those: SQLite in PRAGMA user_version, PostgreSQL in schema_migrations (./postgres/store.ts). So
 * the versions that databases made before this list recorded still mean what they meant.
 * Append, never edit or reorder.
 */
import { CALENDAR_FEEDS_TABLE } from './calendar-copies.ts';
import { CALENDAR_WRITES_TABLE } from './calendar-writes.ts';
import { folded, searchWordsOfAll } from './staff-queries.ts';

export type Engine = 'sqlite' | 'postgres';

/** A statement of a step of code, with `?` placeholders, and what it read back (none: no rows). */
export interface Statement {
  sql: string;
  params: unknown[];
}
export type Rows = Record<string, unknown>[];

/**
 * A step of code, for what SQL alone cannot make as the site's code does (an enquiry's search
 * words): the statements it makes as it reads, each given the rows of the one before. Both
 * engines run it in the step's transaction, SQLite at once and PostgreSQL over the network, from
 * this one generator. `name` stands for it where a step's text would (tests/unit/shipped-migrations.test.ts).
 */
export interface CodeStep {
  name: string;
  statements(): Generator<Statement, void, Rows>;
}

/** One step: SQL of both engines, each engine's own (none: it has nothing to do), or code. */
export type Migration = string | Partial<Record<Engine, string>> | CodeStep;
export type Step = string | CodeStep;

export const isCodeStep = (step: Migration): step is CodeStep =>
  typeof step === 'object' && 'statements' in step;

/** The kinds of e-mail the outbox (now `jobs`) took while a CHECK listed them (steps 9, 10 and 13; see 16). */
const MAIL_KINDS_CHECK = `mail IN ('agency', 'prospect', 'host', 'agency-cancel', 'prospect-cancel', 'host-cancel')`;
const MAIL_KINDS_CHECK_MOVES = `mail IN ('agency', 'prospect', 'host', 'agency-cancel',
  'prospect-cancel', 'host-cancel', 'agency-move', 'prospect-move', 'host-move',
  'prospect-reminder', 'host-reminder')`;
const MAIL_KINDS_CHECK_LAPSES = `mail IN ('agency', 'prospect', 'host', 'agency-cancel',
  'prospect-cancel', 'host-cancel', 'agency-move', 'prospect-move', 'host-move',
  'prospect-reminder', 'host-reminder', 'agency-lapse', 'prospect-lapse', 'host-lapse')`;

/** The last alert to the agency about the pace of bookings, per kind of alert. */
const SITE_ALERTS_TABLE = `CREATE TABLE site_alerts (
     name TEXT PRIMARY KEY,
     sent_at BIGINT NOT NULL
   );`;

/**
 * `word` (SQL) without the accents of its Latin letters, either case, each as ./staff-queries.ts
 * `folded` has it in the site's code: one replace() a letter, as neither engine has a function for
 * it (SQLite's lower() changes ASCII only, PostgreSQL's unaccent is an extension).
 */
function withoutAccents(word: string) {
  const letters = Array.from({ length: 0x17f - 0xc0 + 1 }, (_, i) =>
    String.fromCodePoint(0xc0 + i),
  );
  return letters
    .filter((letter) => folded(letter) !== letter && /^\p{L}+$/u.test(letter + folded(letter)))
    .reduce((sql, letter) => `replace(${sql}, '${letter}', '${folded(letter)}')`, word);
}

/**
 * Every enquiry's search words (step 21; ./staff-queries.ts searchWords makes a new enquiry's the
 * same way): its name's words, its e-mail whole, its two halves and its parts, and its id, in
 * lower case. SQLite's lower() changes ASCII only; PostgreSQL's every letter.
 */
const EMAIL_PARTS = (lower: string) =>
  `replace(replace(replace(replace(replace(${lower}, '@', ' '), '.', ' '), '+', ' '), '_', ' '), '-', ' ')`;
export const SEARCH_WORDS_OF_ALL = {
  sqlite: `WITH RECURSIVE split(id, word, rest) AS (
       SELECT id, '', lower(name) || ' ' || lower(email) || ' '
         || lower(substr(email, 1, instr(email, '@') - 1)) || ' '
         || lower(substr(email, instr(email, '@') + 1)) || ' '
         || ${EMAIL_PARTS('lower(email)')} || ' ' || lower(id) || ' '
       FROM enquiries
       UNION ALL
       SELECT id, substr(rest, 1, instr(rest, ' ') - 1), substr(rest, instr(rest, ' ') + 1)
       FROM split WHERE rest <> ''
     )
     INSERT INTO enquiry_words (word, enquiry_id)
     SELECT DISTINCT substr(word, 1, 64), id FROM split WHERE word <> ''
     ON CONFLICT DO NOTHING;`,
  postgres: `INSERT INTO enquiry_words (word, enquiry_id)
     SELECT DISTINCT left(w, 64), id FROM enquiries,
       regexp_split_to_table(lower(name || ' ' || email || ' ' || split_part(email, '@', 1) || ' '
         || split_part(email, '@', 2) || ' ' || ${EMAIL_PARTS('email')} || ' ' || id), '\\s+') AS w
     WHERE w <> ''
     ON CONFLICT DO NOTHING;`,
};

export const migrations: Migration[] = [
  // 1: the enquiries, their outbox and the health check.
  {
    sqlite: `CREATE TABLE enquiries (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL CHECK (kind IN ('enquiry', 'call')),
     created_at TEXT NOT NULL,
     name TEXT NOT NULL,
     email TEXT NOT NULL,
     data TEXT NOT NULL,
     client_ip TEXT NOT NULL,
     user_agent TEXT NOT NULL,
     spam INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX enquiries_created ON enquiries (created_at);
   CREATE TABLE outbox (
     enquiry_id TEXT PRIMARY KEY REFERENCES enquiries (id),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT
   );
   CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL;
   CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 1), checked_at INTEGER NOT NULL);`,
    // PostgreSQL's first step is SQLite's first four, with the shared rate limit's table.
    postgres: `CREATE TABLE enquiries (
     id TEXT PRIMARY KEY,
     seq BIGSERIAL NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('enquiry', 'call')),
     created_at TIMESTAMPTZ NOT NULL,
     name TEXT NOT NULL,
     email TEXT NOT NULL,
     data JSONB NOT NULL,
     client_ip TEXT NOT NULL,
     user_agent TEXT NOT NULL,
     spam BOOLEAN NOT NULL DEFAULT false,
     idempotency_key TEXT UNIQUE,
     call_start TIMESTAMPTZ,
     call_end TIMESTAMPTZ,
     call_cancelled_at TIMESTAMPTZ,
     CHECK ((call_start IS NULL) = (call_end IS NULL)),
     CONSTRAINT enquiries_booked_call EXCLUDE USING gist (tstzrange(call_start, call_end) WITH &&)
       WHERE (call_start IS NOT NULL AND call_cancelled_at IS NULL)
   );
   CREATE INDEX enquiries_created ON enquiries (created_at, seq);
   CREATE TABLE outbox (
     id BIGSERIAL PRIMARY KEY,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     mail TEXT NOT NULL CHECK (mail IN ('agency', 'prospect', 'agency-cancel', 'prospect-cancel')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at BIGINT NOT NULL,
     sent_at BIGINT,
     last_error TEXT,
     leased_until BIGINT,
     UNIQUE (enquiry_id, mail)
   );
   CREATE INDEX outbox_due ON outbox (next_attempt_at, id) WHERE sent_at IS NULL;
   CREATE TABLE rate_limit (
     client TEXT NOT NULL,
     window_start BIGINT NOT NULL,
     hits INTEGER NOT NULL,
     PRIMARY KEY (client, window_start)
   );
   CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 1), checked_at BIGINT NOT NULL);`,
  },
  // 2: one enquiry per idempotency key (enquiries stored before it have none; NULLs do not clash).
  {
    sqlite: `ALTER TABLE enquiries ADD COLUMN idempotency_key TEXT;
   CREATE UNIQUE INDEX enquiries_idempotency_key ON enquiries (idempotency_key);`,
  },
  // 3: booked calls (an enquiry with a time: one booking per start), and one outbox entry per e-mail.
  {
    sqlite: `ALTER TABLE enquiries ADD COLUMN call_start TEXT;
   ALTER TABLE enquiries ADD COLUMN call_end TEXT;
   ALTER TABLE enquiries ADD COLUMN call_cancelled_at TEXT;
   CREATE UNIQUE INDEX enquiries_booked_call ON enquiries (call_start)
     WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL;
   CREATE TABLE mail_outbox (
     id INTEGER PRIMARY KEY,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     mail TEXT NOT NULL CHECK (mail IN ('agency', 'prospect', 'agency-cancel', 'prospect-cancel')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT,
     UNIQUE (enquiry_id, mail)
   );
   INSERT INTO mail_outbox (enquiry_id, mail, attempts, next_attempt_at, sent_at, last_error)
     SELECT enquiry_id, 'agency', attempts, next_attempt_at, sent_at, last_error FROM outbox;
   DROP TABLE outbox;
   ALTER TABLE mail_outbox RENAME TO outbox;
   CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL;`,
  },
  // 4: a claim on an outbox entry while it is being sent, as on PostgreSQL (the same behaviour).
  {
    sqlite: `ALTER TABLE outbox ADD COLUMN leased_until INTEGER;`,
  },
  // 5: mail that failed for good (never claimed again; why, in last_error); the site's own secrets
  // (the cancel links' key when BOOKING_SECRET is not set); and spam no longer holds a time.
  {
    sqlite: `ALTER TABLE outbox ADD COLUMN undeliverable_at INTEGER;
   DROP INDEX outbox_due;
   CREATE INDEX outbox_due ON outbox (next_attempt_at)
     WHERE sent_at IS NULL AND undeliverable_at IS NULL;
   CREATE TABLE site_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
   UPDATE enquiries SET call_start = NULL, call_end = NULL
     WHERE spam = 1 AND call_start IS NOT NULL;`,
    // With an index of the calls booked, for counting those ahead of an address or a client.
    postgres: `ALTER TABLE outbox ADD COLUMN undeliverable_at BIGINT;
   DROP INDEX outbox_due;
   CREATE INDEX outbox_due ON outbox (next_attempt_at, id)
     WHERE sent_at IS NULL AND undeliverable_at IS NULL;
   CREATE TABLE site_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
   UPDATE enquiries SET call_start = NULL, call_end = NULL WHERE spam AND call_start IS NOT NULL;
   CREATE INDEX enquiries_booked_start ON enquiries (call_start)
     WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL;`,
  },
  // 6: field data (src/server/vitals/), with no column that could name a visitor.
  {
    sqlite: `CREATE TABLE vitals (
     day TEXT NOT NULL,
     path TEXT NOT NULL,
     metric TEXT NOT NULL,
     value REAL NOT NULL,
     rating TEXT NOT NULL,
     navigation TEXT NOT NULL,
     connection TEXT NOT NULL,
     device TEXT NOT NULL,
     build TEXT NOT NULL,
     target TEXT,
     phases TEXT
   );
   CREATE INDEX vitals_day ON vitals (day);`,
    postgres: `CREATE TABLE vitals (
     seq BIGSERIAL PRIMARY KEY,
     day DATE NOT NULL,
     path TEXT NOT NULL,
     metric TEXT NOT NULL,
     value DOUBLE PRECISION NOT NULL,
     rating TEXT NOT NULL,
     navigation TEXT NOT NULL,
     connection TEXT NOT NULL,
     device TEXT NOT NULL,
     build TEXT NOT NULL,
     target TEXT,
     phases DOUBLE PRECISION[]
   );
   CREATE INDEX vitals_day ON vitals (day);`,
  },
  // 7: the host a call is booked with (none for calls booked before there were hosts, which hold
  // every host's time); a host has one call per start.
  {
    sqlite: `ALTER TABLE enquiries ADD COLUMN call_host TEXT;
   DROP INDEX enquiries_booked_call;
   CREATE UNIQUE INDEX enquiries_booked_call ON enquiries (coalesce(call_host, ''), call_start)
     WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL;`,
    postgres: `ALTER TABLE enquiries ADD COLUMN call_host TEXT;
   ALTER TABLE enquiries DROP CONSTRAINT enquiries_booked_call;
   CREATE UNIQUE INDEX enquiries_booked_call ON enquiries (coalesce(call_host, ''), call_start)
     WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL;`,
  },
  // 8: the hosts' calendar feeds as last read (./calendar-copies.ts).
  CALENDAR_FEEDS_TABLE,
  // 9: a call's host gets its invitation and its cancellation: two more kinds of e-mail (SQLite
  // changes a CHECK by making the table again).
  {
    sqlite: `CREATE TABLE outbox_9 (
     id INTEGER PRIMARY KEY,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     mail TEXT NOT NULL CHECK (${MAIL_KINDS_CHECK}),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT,
     leased_until INTEGER,
     undeliverable_at INTEGER,
     UNIQUE (enquiry_id, mail)
   );
   INSERT INTO outbox_9 (id, enquiry_id, mail, attempts, next_attempt_at, sent_at, last_error,
       leased_until, undeliverable_at)
     SELECT id, enquiry_id, mail, attempts, next_attempt_at, sent_at, last_error, leased_until,
       undeliverable_at FROM outbox;
   DROP TABLE outbox;
   ALTER TABLE outbox_9 RENAME TO outbox;
   CREATE INDEX outbox_due ON outbox (next_attempt_at)
     WHERE sent_at IS NULL AND undeliverable_at IS NULL;`,
    postgres: `ALTER TABLE outbox DROP CONSTRAINT outbox_mail_check;
   ALTER TABLE outbox ADD CONSTRAINT outbox_mail_check CHECK (${MAIL_KINDS_CHECK});`,
  },
  // 10: calls that move and are reminded. A call keeps its calendar SEQUENCE and how often it moved;
  // an outbox entry, what its e-mail is about as it was when queued (the sequence, the host, the
  // time, a move's old time, a reminder's lead), so that a later move never rewrites it; and an
  // e-mail dropped unsent (a reminder of a time since moved). Cancellations sent so far were SEQUENCE 1.
  {
    sqlite: `ALTER TABLE enquiries ADD COLUMN call_sequence INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE enquiries ADD COLUMN call_moves INTEGER NOT NULL DEFAULT 0;
   UPDATE enquiries SET call_sequence = 1 WHERE call_cancelled_at IS NOT NULL;
   CREATE TABLE outbox_10 (
     id INTEGER PRIMARY KEY,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     mail TEXT NOT NULL CHECK (${MAIL_KINDS_CHECK_MOVES}),
     sequence INTEGER NOT NULL DEFAULT 0,
     remind_minutes INTEGER NOT NULL DEFAULT 0,
     host TEXT,
     start_at TEXT,
     end_at TEXT,
     previous_start_at TEXT,
     previous_end_at TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT,
     leased_until INTEGER,
     undeliverable_at INTEGER,
     skipped_at INTEGER,
     UNIQUE (enquiry_id, mail, sequence, remind_minutes)
   );
   INSERT INTO outbox_10 (id, enquiry_id, mail, sequence, host, start_at, end_at, attempts,
       next_attempt_at, sent_at, last_error, leased_until, undeliverable_at)
     SELECT o.id, o.enquiry_id, o.mail, CASE WHEN o.mail LIKE '%-cancel' THEN 1 ELSE 0 END,
       e.call_host, e.call_start, e.call_end, o.attempts, o.next_attempt_at, o.sent_at,
       o.last_error, o.leased_until, o.undeliverable_at
     FROM outbox o JOIN enquiries e ON e.id = o.enquiry_id;
   DROP TABLE outbox;
   ALTER TABLE outbox_10 RENAME TO outbox;
   CREATE INDEX outbox_due ON outbox (next_attempt_at)
     WHERE sent_at IS NULL AND undeliverable_at IS NULL AND skipped_at IS NULL;`,
    postgres: `ALTER TABLE enquiries ADD COLUMN call_sequence INTEGER NOT NULL DEFAULT 0,
     ADD COLUMN call_moves INTEGER NOT NULL DEFAULT 0;
   UPDATE enquiries SET call_sequence = 1 WHERE call_cancelled_at IS NOT NULL;
   ALTER TABLE outbox ADD COLUMN sequence INTEGER NOT NULL DEFAULT 0,
     ADD COLUMN remind_minutes INTEGER NOT NULL DEFAULT 0,
     ADD COLUMN host TEXT,
     ADD COLUMN start_at TEXT,
     ADD COLUMN end_at TEXT,
     ADD COLUMN previous_start_at TEXT,
     ADD COLUMN previous_end_at TEXT,
     ADD COLUMN skipped_at BIGINT;
   UPDATE outbox o SET sequence = CASE WHEN o.mail LIKE '%-cancel' THEN 1 ELSE 0 END,
       host = e.call_host,
       start_at = to_char(e.call_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       end_at = to_char(e.call_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
     FROM enquiries e WHERE e.id = o.enquiry_id AND e.call_start IS NOT NULL;
   ALTER TABLE outbox DROP CONSTRAINT outbox_mail_check;
   ALTER TABLE outbox ADD CONSTRAINT outbox_mail_check CHECK (${MAIL_KINDS_CHECK_MOVES});
   ALTER TABLE outbox DROP CONSTRAINT outbox_enquiry_id_mail_key;
   ALTER TABLE outbox ADD CONSTRAINT outbox_one_mail UNIQUE (enquiry_id, mail, sequence, remind_minutes);
   DROP INDEX outbox_due;
   CREATE INDEX outbox_due ON outbox (next_attempt_at, id)
     WHERE sent_at IS NULL AND undeliverable_at IS NULL AND skipped_at IS NULL;`,
  },
  // 11: field data a flood cannot rewrite: each measurement's sample key (a day over its cap keeps
  // those of smallest key: a uniform sample of the day; those stored before keep key 0, kept
  // first), and each day's counts of what came in and what was dropped.
  {
    sqlite: `ALTER TABLE vitals ADD COLUMN sample REAL NOT NULL DEFAULT 0;
   DROP INDEX vitals_day;
   CREATE INDEX vitals_day_sample ON vitals (day, sample);
   CREATE TABLE vitals_days (
     day TEXT PRIMARY KEY,
     received INTEGER NOT NULL DEFAULT 0,
     dropped INTEGER NOT NULL DEFAULT 0
   );`,
    postgres: `ALTER TABLE vitals ADD COLUMN sample DOUBLE PRECISION NOT NULL DEFAULT 0;
   DROP INDEX vitals_day;
   CREATE INDEX vitals_day_sample ON vitals (day, sample);
   CREATE TABLE vitals_days (
     day DATE PRIMARY KEY,
     received BIGINT NOT NULL DEFAULT 0,
     dropped BIGINT NOT NULL DEFAULT 0
   );`,
  },
  // 12: a call waits for its prospect's confirmation (the link of its e-mail); the calls stored
  // before count as confirmed. The last alert to the agency about the pace of bookings.
  {
    sqlite: `ALTER TABLE enquiries ADD COLUMN call_confirmed_at TEXT;
   UPDATE enquiries SET call_confirmed_at = created_at WHERE call_start IS NOT NULL;
   ${SITE_ALERTS_TABLE}`,
    postgres: `ALTER TABLE enquiries ADD COLUMN call_confirmed_at TIMESTAMPTZ;
   UPDATE enquiries SET call_confirmed_at = created_at WHERE call_start IS NOT NULL;
   ${SITE_ALERTS_TABLE}`,
  },
  // 13: a call not confirmed in time is released (BOOKING_CONFIRM_MINUTES): when it lapsed, an
  // index of the calls waiting for confirmation for the sweep, and three kinds of e-mail that say
  // so (the outbox made again for its CHECK, as in 10).
  {
    sqlite: `ALTER TABLE enquiries ADD COLUMN call_lapsed_at TEXT;
   CREATE INDEX enquiries_unconfirmed ON enquiries (created_at)
     WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_confirmed_at IS NULL;
   CREATE TABLE outbox_13 (
     id INTEGER PRIMARY KEY,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     mail TEXT NOT NULL CHECK (${MAIL_KINDS_CHECK_LAPSES}),
     sequence INTEGER NOT NULL DEFAULT 0,
     remind_minutes INTEGER NOT NULL DEFAULT 0,
     host TEXT,
     start_at TEXT,
     end_at TEXT,
     previous_start_at TEXT,
     previous_end_at TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT,
     leased_until INTEGER,
     undeliverable_at INTEGER,
     skipped_at INTEGER,
     UNIQUE (enquiry_id, mail, sequence, remind_minutes)
   );
   INSERT INTO outbox_13 (id, enquiry_id, mail, sequence, remind_minutes, host, start_at, end_at,
       previous_start_at, previous_end_at, attempts, next_attempt_at, sent_at, last_error,
       leased_until, undeliverable_at, skipped_at)
     SELECT id, enquiry_id, mail, sequence, remind_minutes, host, start_at, end_at,
       previous_start_at, previous_end_at, attempts, next_attempt_at, sent_at, last_error,
       leased_until, undeliverable_at, skipped_at FROM outbox;
   DROP TABLE outbox;
   ALTER TABLE outbox_13 RENAME TO outbox;
   CREATE INDEX outbox_due ON outbox (next_attempt_at)
     WHERE sent_at IS NULL AND undeliverable_at IS NULL AND skipped_at IS NULL;`,
    postgres: `ALTER TABLE enquiries ADD COLUMN call_lapsed_at TIMESTAMPTZ;
   CREATE INDEX enquiries_unconfirmed ON enquiries (created_at)
     WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_confirmed_at IS NULL;
   ALTER TABLE outbox DROP CONSTRAINT outbox_mail_check;
   ALTER TABLE outbox ADD CONSTRAINT outbox_mail_check CHECK (${MAIL_KINDS_CHECK_LAPSES});`,
  },
  // 14: field data's network key (a short keyed hash of the network, which names none), so that
  // /speed gives each network at most its share of a figure; those stored before have none.
  `ALTER TABLE vitals ADD COLUMN network TEXT;`,
  // 15: who moved or cancelled a call, on its e-mails: the staff (with their reason, if any), else
  // the prospect (NULL, as every e-mail queued before).
  `ALTER TABLE outbox ADD COLUMN changed_by TEXT CHECK (changed_by IN ('staff'));
   ALTER TABLE outbox ADD COLUMN change_reason TEXT;`,
  // 16: the outbox becomes the queue of all durable work (../jobs/): a job's kind is checked by the
  // code that runs it, not by a CHECK, so that a new kind needs no step here; a job may be about no
  // enquiry, and carries what it needs (payload, JSON). The column keeps its name, `mail`, which
  // every e-mail's job has as its kind.
  {
    sqlite: `CREATE TABLE outbox_16 (
     id INTEGER PRIMARY KEY,
     enquiry_id TEXT REFERENCES enquiries (id),
     mail TEXT NOT NULL,
     payload TEXT,
     sequence INTEGER NOT NULL DEFAULT 0,
     remind_minutes INTEGER NOT NULL DEFAULT 0,
     host TEXT,
     start_at TEXT,
     end_at TEXT,
     previous_start_at TEXT,
     previous_end_at TEXT,
     changed_by TEXT CHECK (changed_by IN ('staff')),
     change_reason TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT,
     leased_until INTEGER,
     undeliverable_at INTEGER,
     skipped_at INTEGER,
     UNIQUE (enquiry_id, mail, sequence, remind_minutes)
   );
   INSERT INTO outbox_16 (id, enquiry_id, mail, sequence, remind_minutes, host, start_at, end_at,
       previous_start_at, previous_end_at, changed_by, change_reason, attempts, next_attempt_at,
       sent_at, last_error, leased_until, undeliverable_at, skipped_at)
     SELECT id, enquiry_id, mail, sequence, remind_minutes, host, start_at, end_at,
       previous_start_at, previous_end_at, changed_by, change_reason, attempts, next_attempt_at,
       sent_at, last_error, leased_until, undeliverable_at, skipped_at FROM outbox;
   DROP TABLE outbox;
   ALTER TABLE outbox_16 RENAME TO outbox;
   CREATE INDEX outbox_due ON outbox (next_attempt_at)
     WHERE sent_at IS NULL AND undeliverable_at IS NULL AND skipped_at IS NULL;`,
    postgres: `ALTER TABLE outbox DROP CONSTRAINT outbox_mail_check;
   ALTER TABLE outbox ALTER COLUMN enquiry_id DROP NOT NULL;
   ALTER TABLE outbox ADD COLUMN payload TEXT;`,
  },
  // 17: the staff's desk (../staff/): sign-in links (by id; the link's token is the id signed),
  // sessions (by a hash of the cookie's token, never the token), passkeys, the audit log of every
  // staff action, and who marked an enquiry handled, when. Instants in epoch ms, as the outbox's.
  `CREATE TABLE staff_links (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL,
     created_at BIGINT NOT NULL,
     expires_at BIGINT NOT NULL,
     used_at BIGINT
   );
   CREATE INDEX staff_links_email ON staff_links (email, created_at);
   CREATE TABLE staff_sessions (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL,
     created_at BIGINT NOT NULL,
     seen_at BIGINT NOT NULL,
     ended_at BIGINT
   );
   CREATE TABLE staff_passkeys (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL,
     public_key TEXT NOT NULL,
     counter BIGINT NOT NULL,
     transports TEXT,
     created_at BIGINT NOT NULL,
     used_at BIGINT
   );
   CREATE INDEX staff_passkeys_email ON staff_passkeys (email);
   CREATE TABLE staff_audit (
     at BIGINT NOT NULL,
     actor TEXT NOT NULL,
     action TEXT NOT NULL,
     subject TEXT,
     detail TEXT
   );
   CREATE INDEX staff_audit_at ON staff_audit (at);
   ALTER TABLE enquiries ADD COLUMN handled_at BIGINT;
   ALTER TABLE enquiries ADD COLUMN handled_by TEXT;`,
  // 18: sign-in links and passkey challenges apart, each kept only as a hash. A link is a row per
  // member and seq (of two requests at once, one sends the next link), named to its e-mail's job
  // by `ref`; the hash of its id is set as the e-mail is made. A challenge has its purpose and one
  // of its network's slots (the bound). The links of step 17 held ids, not hashes: they are
  // dropped, and a link sent before the upgrade asks for a new one.
  `DROP TABLE staff_links;
   CREATE TABLE staff_links (
     ref TEXT PRIMARY KEY,
     email TEXT NOT NULL,
     seq INTEGER NOT NULL,
     id_hash TEXT UNIQUE,
     created_at BIGINT NOT NULL,
     expires_at BIGINT NOT NULL,
     used_at BIGINT,
     UNIQUE (email, seq)
   );
   CREATE INDEX staff_links_expiry ON staff_links (expires_at);
   CREATE TABLE staff_challenges (
     hash TEXT PRIMARY KEY,
     purpose TEXT NOT NULL CHECK (purpose IN ('register', 'sign-in')),
     email TEXT,
     network TEXT NOT NULL,
     slot INTEGER NOT NULL,
     expires_at BIGINT NOT NULL,
     UNIQUE (network, slot)
   );
   CREATE INDEX staff_challenges_expiry ON staff_challenges (expires_at);`,
  // 19: the outbox named as what it is, the queue of jobs (../jobs/): `jobs`, whose `kind` says
  // which handler runs one, done or failed for good (`done_at`, `failed_at`). What a job is about
  // is its kind's payload alone: the call an e-mail was queued about, kept in columns of every job
  // since 10 (and who changed it, since 15), moves into its payload ({"call": …},
  // ../mail/mail-jobs.ts), so that a new kind needs no column. Jobs are found by their enquiry.
  {
    sqlite: `CREATE TABLE jobs (
     id INTEGER PRIMARY KEY,
     enquiry_id TEXT REFERENCES enquiries (id),
     kind TEXT NOT NULL,
     payload TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     done_at INTEGER,
     last_error TEXT,
     leased_until INTEGER,
     failed_at INTEGER,
     skipped_at INTEGER
   );
   INSERT INTO jobs (id, enquiry_id, kind, payload, attempts, next_attempt_at, done_at, last_error,
       leased_until, failed_at, skipped_at)
     SELECT id, enquiry_id, mail,
       CASE WHEN start_at IS NULL OR end_at IS NULL THEN payload
       ELSE json_object('call', json_patch(
         json_object('sequence', sequence, 'host', host, 'start', start_at, 'end', end_at),
         json_object(
           'previous', CASE WHEN previous_start_at IS NOT NULL AND previous_end_at IS NOT NULL
             THEN json_object('start', previous_start_at, 'end', previous_end_at) END,
           'remindMinutes', CASE WHEN remind_minutes > 0 THEN remind_minutes END,
           'change', CASE WHEN changed_by = 'staff' THEN json_patch(json_object('by', 'staff'),
             json_object('reason', nullif(change_reason, ''))) END))) END,
       attempts, next_attempt_at, sent_at, last_error, leased_until, undeliverable_at, skipped_at
     FROM outbox;
   DROP TABLE outbox;
   CREATE INDEX jobs_due ON jobs (next_attempt_at)
     WHERE done_at IS NULL AND failed_at IS NULL AND skipped_at IS NULL;
   CREATE INDEX jobs_enquiry ON jobs (enquiry_id, kind);`,
    postgres: `ALTER TABLE outbox RENAME TO jobs;
   ALTER TABLE jobs RENAME COLUMN mail TO kind;
   ALTER TABLE jobs RENAME COLUMN sent_at TO done_at;
   ALTER TABLE jobs RENAME COLUMN undeliverable_at TO failed_at;
   UPDATE jobs SET payload = jsonb_build_object('call',
       jsonb_build_object('sequence', sequence, 'host', host, 'start', start_at, 'end', end_at)
       || CASE WHEN previous_start_at IS NOT NULL AND previous_end_at IS NOT NULL
         THEN jsonb_build_object('previous',
           jsonb_build_object('start', previous_start_at, 'end', previous_end_at))
         ELSE '{}'::jsonb END
       || CASE WHEN remind_minutes > 0 THEN jsonb_build_object('remindMinutes', remind_minutes)
         ELSE '{}'::jsonb END
       || CASE WHEN changed_by = 'staff' THEN jsonb_build_object('change',
           jsonb_build_object('by', 'staff')
           || CASE WHEN change_reason <> '' THEN jsonb_build_object('reason', change_reason)
             ELSE '{}'::jsonb END)
         ELSE '{}'::jsonb END)::text
     WHERE start_at IS NOT NULL AND end_at IS NOT NULL;
   ALTER TABLE jobs DROP CONSTRAINT outbox_one_mail;
   ALTER TABLE jobs DROP COLUMN sequence, DROP COLUMN remind_minutes, DROP COLUMN host,
     DROP COLUMN start_at, DROP COLUMN end_at, DROP COLUMN previous_start_at,
     DROP COLUMN previous_end_at, DROP COLUMN changed_by, DROP COLUMN change_reason;
   ALTER SEQUENCE outbox_id_seq RENAME TO jobs_id_seq;
   ALTER INDEX outbox_pkey RENAME TO jobs_pkey;
   ALTER TABLE jobs RENAME CONSTRAINT outbox_enquiry_id_fkey TO jobs_enquiry_id_fkey;
   DROP INDEX outbox_due;
   CREATE INDEX jobs_due ON jobs (next_attempt_at, id)
     WHERE done_at IS NULL AND failed_at IS NULL AND skipped_at IS NULL;
   CREATE INDEX jobs_enquiry ON jobs (enquiry_id, kind);`,
  },
  // 20: publishing from the browser (../releases/). A publish is queued or building while
  // `active` is 1: unique, so that two presses at once start one. A release is live from its
  // insert (the newest is); its files travel to every process as a gzipped tar (`files`, dropped
  // once it is no longer among the releases kept); a roll back serves the files of `folder`; the
  // first publish keeps the build deployed before it as a release (`deploy`), to roll back to.
  {
    sqlite: `CREATE TABLE publishes (
     id INTEGER PRIMARY KEY,
     active INTEGER UNIQUE,
     state TEXT NOT NULL CHECK (state IN ('queued', 'building', 'live', 'failed')),
     step TEXT NOT NULL,
     progress INTEGER NOT NULL DEFAULT 0,
     actor TEXT NOT NULL,
     actor_name TEXT NOT NULL,
     commit_id TEXT,
     release_id INTEGER,
     reason TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE releases (
     id INTEGER PRIMARY KEY,
     folder INTEGER REFERENCES releases (id),
     kind TEXT NOT NULL CHECK (kind IN ('deploy', 'publish', 'rollback')),
     commit_id TEXT NOT NULL,
     actor TEXT NOT NULL,
     actor_name TEXT NOT NULL,
     summary TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     files BLOB
   );`,
    postgres: `CREATE TABLE publishes (
     id BIGSERIAL PRIMARY KEY,
     active INTEGER UNIQUE,
     state TEXT NOT NULL CHECK (state IN ('queued', 'building', 'live', 'failed')),
     step TEXT NOT NULL,
     progress INTEGER NOT NULL DEFAULT 0,
     actor TEXT NOT NULL,
     actor_name TEXT NOT NULL,
     commit_id TEXT,
     release_id BIGINT,
     reason TEXT,
     created_at BIGINT NOT NULL,
     updated_at BIGINT NOT NULL
   );
   CREATE TABLE releases (
     id BIGSERIAL PRIMARY KEY,
     folder BIGINT REFERENCES releases (id),
     kind TEXT NOT NULL CHECK (kind IN ('deploy', 'publish', 'rollback')),
     commit_id TEXT NOT NULL,
     actor TEXT NOT NULL,
     actor_name TEXT NOT NULL,
     summary TEXT NOT NULL,
     created_at BIGINT NOT NULL,
     files BYTEA
   );`,
  },
  // 21: every call's life on the desk (./staff-queries.ts): who cancelled a call (a member's
  // address, 'staff' from the CLI, or 'prospect') and why; a past call held or a no-show (by whom,
  // when); the members' private notes; the indexes the desk's paged lists read through; and each
  // enquiry's search words (a word's beginning is found through an index, however many are stored).
  {
    sqlite: `ALTER TABLE enquiries ADD COLUMN call_cancelled_by TEXT;
   ALTER TABLE enquiries ADD COLUMN call_cancel_reason TEXT;
   ALTER TABLE enquiries ADD COLUMN call_outcome TEXT CHECK (call_outcome IN ('held', 'no-show'));
   ALTER TABLE enquiries ADD COLUMN call_outcome_by TEXT;
   ALTER TABLE enquiries ADD COLUMN call_outcome_at BIGINT;
   CREATE TABLE enquiry_notes (
     id INTEGER PRIMARY KEY,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     author TEXT NOT NULL,
     at BIGINT NOT NULL,
     body TEXT NOT NULL
   );
   CREATE INDEX enquiry_notes_enquiry ON enquiry_notes (enquiry_id, at);
   CREATE INDEX enquiries_calls ON enquiries (call_start) WHERE call_start IS NOT NULL;
   CREATE INDEX enquiries_handled ON enquiries (created_at) WHERE handled_at IS NOT NULL;
   CREATE TABLE enquiry_words (
     word TEXT NOT NULL,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     PRIMARY KEY (word, enquiry_id)
   );
   CREATE INDEX enquiry_words_enquiry ON enquiry_words (enquiry_id, word);
   ${SEARCH_WORDS_OF_ALL.sqlite}`,
    postgres: `ALTER TABLE enquiries ADD COLUMN call_cancelled_by TEXT,
     ADD COLUMN call_cancel_reason TEXT,
     ADD COLUMN call_outcome TEXT CHECK (call_outcome IN ('held', 'no-show')),
     ADD COLUMN call_outcome_by TEXT,
     ADD COLUMN call_outcome_at BIGINT;
   CREATE TABLE enquiry_notes (
     id BIGSERIAL PRIMARY KEY,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     author TEXT NOT NULL,
     at BIGINT NOT NULL,
     body TEXT NOT NULL
   );
   CREATE INDEX enquiry_notes_enquiry ON enquiry_notes (enquiry_id, at);
   CREATE INDEX enquiries_calls ON enquiries (call_start) WHERE call_start IS NOT NULL;
   CREATE INDEX enquiries_handled ON enquiries (created_at, seq) WHERE handled_at IS NOT NULL;
   CREATE TABLE enquiry_words (
     word TEXT COLLATE "C" NOT NULL,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     PRIMARY KEY (word, enquiry_id)
   );
   CREATE INDEX enquiry_words_enquiry ON enquiry_words (enquiry_id, word);
   ${SEARCH_WORDS_OF_ALL.postgres}`,
  },
  // 22: each call's event as written into its host's calendar over CalDAV (CALENDAR_WRITE): which
  // host's, its ETag, and a lease so that one process writes a call at a time.
  CALENDAR_WRITES_TABLE,
  // 23: the time a call was last moved from, so that the same move posted again (a double tap, a
  // retry after a lost answer) is answered as the first was, "Moved from" included.
  {
    sqlite: 'ALTER TABLE enquiries ADD COLUMN call_moved_from TEXT;',
    postgres: 'ALTER TABLE enquiries ADD COLUMN call_moved_from TIMESTAMPTZ;',
  },
  // 24: the search words stored before, each also without its accents, as ./staff-queries.ts
  // searchWords now stores a new enquiry's and searchTerms reads what is typed ("jose" finds José).
  `INSERT INTO enquiry_words (word, enquiry_id)
   SELECT DISTINCT ${withoutAccents('word')}, enquiry_id FROM enquiry_words
   WHERE ${withoutAccents('word')} <> word
   ON CONFLICT DO NOTHING;`,
  // 25: every enquiry's search words again, made by the site's own code (searchWords): the words
  // stored before step 24 were neither parted at a name's hyphens and apostrophes ("luc" finds
  // Jean-Luc) nor, outside Latin letters, without their marks ("nguyen" finds Nguyễn).
  { name: 'search words of every enquiry, by searchWords', statements: searchWordsOfAll },
  // 26: the jobs that failed for good, counted from an index of their own: /healthz counts them at
  // each balancer's check (every second), and done jobs are kept, so the count read every job.
  'CREATE INDEX jobs_failed ON jobs (failed_at) WHERE failed_at IS NOT NULL;',
  // 27: the hosts' names as the live site last had them (./staff-queries.ts rememberHosts): a call
  // keeps only its host's id, and a host a publish removes is still named beside their calls on the
  // desk, and can still be chosen in its Host filter; and every call of a host, cancelled ones too,
  // found through an index (that filter, and whether a host removed has calls).
  `CREATE TABLE hosts_known (id TEXT PRIMARY KEY, name TEXT NOT NULL);
   CREATE INDEX enquiries_host ON enquiries (call_host) WHERE call_host IS NOT NULL;`,
  // 28: who made a call's last move, the prospect (its change link) or the staff (the desk, the
  // CLI), so that its old change link says "we moved it" with e-mail off too. A move stored before
  // is known only from its e-mail to the prospect (a 'prospect-move' job): none, it stays unknown.
  {
    sqlite: `ALTER TABLE enquiries ADD COLUMN call_moved_by TEXT
     CHECK (call_moved_by IN ('prospect', 'staff'));
   UPDATE enquiries SET call_moved_by = (
       SELECT CASE WHEN json_extract(j.payload, '$.call.change.by') = 'staff' THEN 'staff'
         ELSE 'prospect' END
       FROM jobs j WHERE j.enquiry_id = enquiries.id AND j.kind = 'prospect-move'
       ORDER BY j.id DESC LIMIT 1)
     WHERE call_moves > 0;`,
    postgres: `ALTER TABLE enquiries ADD COLUMN call_moved_by TEXT
     CHECK (call_moved_by IN ('prospect', 'staff'));
   UPDATE enquiries e SET call_moved_by = (
       SELECT CASE WHEN j.payload::jsonb #>> '{call,change,by}' = 'staff' THEN 'staff'
         ELSE 'prospect' END
       FROM jobs j WHERE j.enquiry_id = e.id AND j.kind = 'prospect-move'
       ORDER BY j.id DESC LIMIT 1)
     WHERE e.call_moves > 0;`,
  },
  // 29: when a call's last move was made, and the member who made it from the desk (their
  // sign-in address), so that the desk says "Moved by Anna Reid on …". A move of the prospect's or
  // the CLI's has no member; one stored before has neither (call_moved_by still says whose it was).
  `ALTER TABLE enquiries ADD COLUMN call_moved_at BIGINT;
   ALTER TABLE enquiries ADD COLUMN call_moved_by_member TEXT;`,
];

/** The steps `engine` runs, in order (of the first `count` migrations: all): its version counts these. */
export const stepsOf = (engine: Engine, count = migrations.length): Step[] =>
  migrations.slice(0, count).flatMap((step) => {
    const own = typeof step === 'string' || isCodeStep(step) ? step : step[engine];
    return own === undefined ? [] : [own];
  });

/** Runs a step of code through `run` (a statement, its rows back), in the caller's transaction. */
export function runCodeStep(step: CodeStep, run: (statement: Statement) => Rows): void;
export function runCodeStep(
  step: CodeStep,
  run: (statement: Statement) => Promise<Rows>,
): Promise<void>;
export function runCodeStep(
  step: CodeStep,
  run: (statement: Statement) => Rows | Promise<Rows>,
): void | Promise<void> {
  const statements = step.statements();
  const go = (rows: Rows): void | Promise<void> => {
    for (;;) {
      const next = statements.next(rows);
      if (next.done) return;
      const read = run(next.value);
      if (read instanceof Promise) return read.then(go);
      rows = read;
    }
  };
  return go([]);
}
