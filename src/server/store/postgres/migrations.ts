/**
 * The PostgreSQL store's schema: numbered migrations, recorded in schema_migrations; each process
 * runs the missing ones at start under an advisory lock, so two that start at once do not both
 * run them.
 */
import type pg from 'pg';
import { CALENDAR_FEEDS_TABLE } from '../calendar-copies.ts';
import {
  MAIL_KINDS_CHECK,
  MAIL_KINDS_CHECK_LAPSES,
  MAIL_KINDS_CHECK_MOVES,
  SITE_ALERTS_TABLE,
} from '../sql.ts';

/** Versioned schema changes, run in order and recorded in schema_migrations. Append, never edit. */
export const postgresMigrations: string[] = [
  // 1: the schema of the SQLite store's three migrations, with a lease on outbox entries, and the
  // shared rate limit.
  `CREATE TABLE enquiries (
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
  // 2: as SQLite's 5: mail that failed for good (never claimed again; why, in last_error); the
  // site's own secrets (the cancel links' key when BOOKING_SECRET is not set); spam no longer holds
  // a time; and an index of the calls booked, for counting those ahead of an address or a client.
  `ALTER TABLE outbox ADD COLUMN undeliverable_at BIGINT;
   DROP INDEX outbox_due;
   CREATE INDEX outbox_due ON outbox (next_attempt_at, id)
     WHERE sent_at IS NULL AND undeliverable_at IS NULL;
   CREATE TABLE site_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
   UPDATE enquiries SET call_start = NULL, call_end = NULL WHERE spam AND call_start IS NOT NULL;
   CREATE INDEX enquiries_booked_start ON enquiries (call_start)
     WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL;`,
  // 3: as SQLite's 6: field data (src/server/vitals/), with no column that could name a visitor.
  `CREATE TABLE vitals (
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
  // 4: as SQLite's 7: the host a call is booked with (none for calls booked before there were
  // hosts, which hold every host's time). Two hosts may be booked at one time: bookings are checked
  // under the booking lock (./store.ts), and a host's starts are unique.
  `ALTER TABLE enquiries ADD COLUMN call_host TEXT;
   ALTER TABLE enquiries DROP CONSTRAINT enquiries_booked_call;
   CREATE UNIQUE INDEX enquiries_booked_call ON enquiries (coalesce(call_host, ''), call_start)
     WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL;`,
  // 5: as SQLite's 8: the hosts' calendar feeds as last read (../calendar-copies.ts).
  CALENDAR_FEEDS_TABLE,
  // 6: as SQLite's 9: a call's host gets its invitation and its cancellation.
  `ALTER TABLE outbox DROP CONSTRAINT outbox_mail_check;
   ALTER TABLE outbox ADD CONSTRAINT outbox_mail_check CHECK (${MAIL_KINDS_CHECK});`,
  // 7: as SQLite's 10: calls that move and are reminded; each e-mail keeps what it is about.
  `ALTER TABLE enquiries ADD COLUMN call_sequence INTEGER NOT NULL DEFAULT 0,
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
  // 8: as SQLite's 11: each measurement's sample key, and each day's counts.
  `ALTER TABLE vitals ADD COLUMN sample DOUBLE PRECISION NOT NULL DEFAULT 0;
   DROP INDEX vitals_day;
   CREATE INDEX vitals_day_sample ON vitals (day, sample);
   CREATE TABLE vitals_days (
     day DATE PRIMARY KEY,
     received BIGINT NOT NULL DEFAULT 0,
     dropped BIGINT NOT NULL DEFAULT 0
   );`,
  // 9: as SQLite's 12: a call waits for its prospect's confirmation (calls stored before count as
  // confirmed); the last alert to the agency about the pace of bookings.
  `ALTER TABLE enquiries ADD COLUMN call_confirmed_at TIMESTAMPTZ;
   UPDATE enquiries SET call_confirmed_at = created_at WHERE call_start IS NOT NULL;
   ${SITE_ALERTS_TABLE}`,
  // 10: as SQLite's 13: a call not confirmed in time is released: when it lapsed, an index of the
  // calls waiting for confirmation for the sweep, and three kinds of e-mail that say so.
  `ALTER TABLE enquiries ADD COLUMN call_lapsed_at TIMESTAMPTZ;
   CREATE INDEX enquiries_unconfirmed ON enquiries (created_at)
     WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_confirmed_at IS NULL;
   ALTER TABLE outbox DROP CONSTRAINT outbox_mail_check;
   ALTER TABLE outbox ADD CONSTRAINT outbox_mail_check CHECK (${MAIL_KINDS_CHECK_LAPSES});`,
  // 11: as SQLite's 14: field data's network key; those stored before have none.
  `ALTER TABLE vitals ADD COLUMN network TEXT;`,
  // 12: as SQLite's 15: who moved or cancelled a call, on its e-mails (NULL: the prospect).
  `ALTER TABLE outbox ADD COLUMN changed_by TEXT CHECK (changed_by IN ('staff'));
   ALTER TABLE outbox ADD COLUMN change_reason TEXT;`,
];

/** The advisory lock that migrations run under (an arbitrary number, the same in every process). */
const MIGRATION_LOCK = 7_110_214_771;

/** Runs the migrations this database lacks, in the transaction `client` has open. */
export async function migrate(client: pg.PoolClient) {
  await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  const { rows } = await client.query<{ version: number }>(
    'SELECT coalesce(max(version), 0) AS version FROM schema_migrations',
  );
  for (let next = rows[0]!.version; next < postgresMigrations.length; next++) {
    await client.query(postgresMigrations[next]!);
    await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [next + 1]);
  }
}
