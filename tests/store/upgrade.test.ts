/**
 * A store that the code before one migration list and one store (commit df3d24c) made, opened by
 * today's code: it upgrades in place, reads back as df3d24c read it, and takes new work. The
 * databases are in ./fixtures/, made by that commit's own code (./fixtures/make-fixtures.mts).
 * And a store of step 17 (the staff's first tables, their rows in it), upgraded to links and
 * challenges apart; and one of step 18 holding a job of every kind queued as the code of then
 * queued it, which each run after the upgrade as the same job queued by today's code does. And
 * one of step 28, whose moves kept no member nor time: the desk says who as it was kept.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { Bookings } from '../../src/server/booking/calls';
import { jobHandler } from '../../src/server/jobs/queue';
import { mailHandlers } from '../../src/server/mail/delivery';
import { MAIL_KINDS, type MailCall } from '../../src/server/mail/mail-jobs';
import type { Mail } from '../../src/server/mail/message';
import { storedHash } from '../../src/server/staff/access';
import { deskItem, whoIn } from '../../src/server/staff/desk-view';
import { SIGN_IN_JOB, sendLink, signInMailHandler } from '../../src/server/staff/links';
import { runCodeStep, stepsOf } from '../../src/server/store/migrations';
import { PostgresStore } from '../../src/server/store/postgres/store';
import { SqliteStore } from '../../src/server/store/sqlite';
import { numbered } from '../../src/server/store/sql';
import type { EnquiryStore } from '../../src/server/store/types';
import { call, enquiry, mailCallOf, plus } from '../support/records';
import { madeSteps, stepsBefore } from '../support/migrations';
import { backends, newPostgresDatabase } from '../support/store-backends';

const fixtures = join(import.meta.dirname, 'fixtures');
const expected = JSON.parse(readFileSync(join(fixtures, 'made-by-df3d24c.expected.json'), 'utf8'));
/** As the JSON has it: plain objects, no undefined. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The fixture of each engine, opened (and so upgraded) by today's code. */
const open: Record<keyof typeof backends, () => Promise<EnquiryStore>> = {
  async sqlite() {
    const dir = mkdtempSync(join(tmpdir(), 'store-upgrade-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'enquiries.sqlite');
    copyFileSync(join(fixtures, 'made-by-df3d24c.sqlite'), path);
    const store = new SqliteStore(path);
    cleanups.push(() => store.close());
    expect(store.db.prepare('PRAGMA user_version').get()).toEqual({
      user_version: stepsOf('sqlite').length,
    });
    return store;
  },
  async postgresql() {
    const url = await newPostgresDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(readFileSync(join(fixtures, 'made-by-df3d24c.postgres.sql'), 'utf8'));
    } finally {
      await client.end();
    }
    const store = await PostgresStore.open(url);
    cleanups.push(() => store.close());
    return store;
  },
};

/** The fixture's call moved by the staff (./fixtures/make-fixtures.mts: 'Host ill'). */
const MOVED_BY_STAFF = '00000000-0000-4000-8000-000000000003';

/**
 * The enquiries as df3d24c read them, and what today's code knows of them besides: who made a
 * call's last move (store step 28, from the move's e-mail to the prospect).
 */
const withMovedBy = (all: { id: string; call?: object }[]) =>
  all.map((e) => (e.id === MOVED_BY_STAFF ? { ...e, call: { ...e.call, movedBy: 'staff' } } : e));

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'a %s store made by df3d24c',
  (engine) => {
    const read = (key: string) => expected[engine === 'sqlite' ? key : `${key}Postgres`];

    it('upgrades in place and reads back every enquiry, call, e-mail and measurement as it did', async () => {
      const store = await open[engine]();
      expect(plain(await store.all())).toEqual(withMovedBy(read('all')));
      expect(await store.count()).toBe(expected.count);
      expect(await store.countFailed()).toBe(expected.countUndeliverable);
      expect(
        plain(await store.bookedBetween('2027-01-01T00:00:00Z', '2028-01-01T00:00:00Z')),
      ).toEqual(expected.bookedBetween);
      expect(plain(await store.vitalsSince('2000-01-01'))).toEqual(expected.vitalsSince);
      expect(plain(await store.vitalsDaysSince('2000-01-01'))).toEqual(expected.vitalsDaysSince);
      expect(plain(await store.calendarCopies.states())).toEqual(expected.calendarCopies.states);
      // What was waiting is still due, as it was queued: each e-mail's job.
      const due = await store.claimDue(expected.dueAt, 1000, 0);
      expect(
        plain(
          due.map((job) => ({
            mail: job.kind,
            enquiryId: job.enquiry?.id,
            attempts: job.attempts,
            ...(mailCallOf(job) && { call: mailCallOf(job) }),
          })),
        ),
      ).toEqual(read('due'));
    });

    it('then books, moves and cancels, and queues a kind of job it never had', async () => {
      const store = await open[engine]();
      const bookings = new Bookings(store);
      const asked = call('2027-03-10T10:00:00Z', { email: 'new@example.com' });
      const booked = await bookings.commit(
        { ...asked, call: { ...asked.call!, hosts: ['ana', 'ben'] } },
        true,
      );
      // Ana has the fixture's call then: Ben takes it.
      expect(booked.call?.host).toBe('ben');
      const moved = await bookings.moveCall(
        '00000000-0000-4000-8000-000000000002',
        { start: '2027-03-10T11:00:00Z', end: '2027-03-10T11:30:00Z', hosts: ['ana'], maxMoves: 3 },
        true,
        expected.now,
      );
      expect(moved).toMatchObject({ status: 'moved', enquiry: { call: { sequence: 1 } } });
      expect(
        await bookings.cancelCall('00000000-0000-4000-8000-000000000003', {
          queueMail: true,
          now: expected.now,
        }),
      ).toMatchObject({ status: 'cancelled' });
      await store.transaction((tx) =>
        tx.queue([{ kind: 'calendar-write', dueAt: 0, payload: { host: 'ana' } }]),
      );
      const jobs = await store.claimDue(0, 1000, 0);
      expect(jobs).toEqual([
        expect.objectContaining({ kind: 'calendar-write', payload: { host: 'ana' } }),
      ]);
      expect(jobs[0]!.enquiry).toBeUndefined();
    });
  },
);

/** The staff's rows as step 17 kept them: a link by its id, a session, a passkey, an audit line. */
const STAFF_ROWS = `
  INSERT INTO staff_links (id, email, created_at, expires_at) VALUES ('link-id-17', 'anna@a.example', 0, 4102444800000);
  INSERT INTO staff_sessions (id, email, created_at, seen_at) VALUES ('session-hash', 'anna@a.example', 1799139600000, 1799139600000);
  INSERT INTO staff_passkeys (id, email, public_key, counter, created_at) VALUES ('cred-1', 'anna@a.example', 'pQECAyYgASFYIA', 3, 0);
  INSERT INTO staff_audit (at, actor, action) VALUES (1, 'anna@a.example', 'signed in');`;

/** SQL run on a store being made: statements as they are, or one with its `?` parameters. */
type Run = (sql: string, params?: readonly SQLInputValue[]) => Promise<unknown>;

/**
 * A store that the code of an earlier step made: the first `steps` of each engine's migrations,
 * with rows `fill` puts in with the SQL of that schema; then opened (and so upgraded) by today's code.
 */
const openMadeAt: Record<
  keyof typeof backends,
  (
    steps: { sqlite: number; postgresql: number },
    fill: (run: Run) => Promise<unknown>,
  ) => Promise<EnquiryStore>
> = {
  async sqlite(steps, fill) {
    const dir = mkdtempSync(join(tmpdir(), 'store-upgrade-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'enquiries.sqlite');
    const made = madeSteps('sqlite', steps.sqlite);
    const db = new DatabaseSync(path);
    for (const step of made)
      if (typeof step === 'string') db.exec(step);
      else
        runCodeStep(step, ({ sql, params }) => db.prepare(sql).all(...(params as SQLInputValue[])));
    db.exec(`PRAGMA user_version = ${made.length}`);
    await fill(async (sql, params) => (params ? db.prepare(sql).run(...params) : db.exec(sql)));
    db.close();
    const store = new SqliteStore(path);
    cleanups.push(() => store.close());
    return store;
  },
  async postgresql(steps, fill) {
    const url = await newPostgresDatabase();
    const made = madeSteps('postgres', steps.postgresql);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const step of made)
        if (typeof step === 'string') await client.query(step);
        else
          await runCodeStep(
            step,
            async ({ sql, params }) => (await client.query(numbered(sql), params)).rows,
          );
      await client.query(`
        CREATE TABLE schema_migrations (
          version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
        INSERT INTO schema_migrations (version) SELECT generate_series(1, ${made.length});`);
      await fill((sql, params) =>
        params ? client.query(numbered(sql), [...params]) : client.query(sql),
      );
    } finally {
      await client.end();
    }
    const store = await PostgresStore.open(url);
    cleanups.push(() => store.close());
    return store;
  },
};

/** A store that the code of step 17 made (the staff's first tables), with staff rows in it. */
const openStep17 = (engine: keyof typeof backends) =>
  openMadeAt[engine]({ sqlite: 17, postgresql: 14 }, (run) => run(STAFF_ROWS));

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'a %s store made when links and challenges shared a table (step 17)',
  (engine) => {
    it('keeps sessions, passkeys and the audit log; its links, kept by id, no longer sign in; new ones work', async () => {
      const store = await openStep17(engine);
      const at = Date.parse('2027-01-05T09:00:00Z');
      expect(await store.staff.session('session-hash', at, 7_200_000, 43_200_000)).toMatchObject({
        email: 'anna@a.example',
      });
      expect(await store.staff.passkey('cred-1')).toMatchObject({ counter: 3 });
      expect(await store.staff.recentAudit(10)).toEqual([
        { at: 1, actor: 'anna@a.example', action: 'signed in', subject: null, detail: null },
      ]);
      expect(await store.staff.useLink('link-id-17', at)).toEqual({ refused: 'unknown' });
      expect(await store.staff.useLink(storedHash('link-id-17'), at)).toEqual({
        refused: 'unknown',
      });
      expect(await sendLink(store, 'anna@a.example', at)).toBe(true);
      const [job] = await store.claimDue(at, 10, 60_000);
      expect(await store.staff.armLink((job!.payload as { ref: string }).ref, 'h', at)).toEqual({
        email: 'anna@a.example',
        expiresAt: at + 15 * 60_000,
      });
      expect(await store.staff.useLink('h', at)).toEqual({ email: 'anna@a.example' });
      expect(
        await store.staff.addChallenge(
          { hash: 'c', purpose: 'sign-in', email: null, network: 'n', expiresAt: at + 1 },
          at,
          1,
        ),
      ).toBe(true);
    });
  },
);

/** Ids of the step-18 store's enquiries, fixed (uuid v4 in form). */
const fixedId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ID = {
  enquiry: fixedId(11),
  moved: fixedId(12),
  cancelled: fixedId(13),
  lapsed: fixedId(14),
};
/** When the step-18 store's rows were written, and when its jobs are run. */
const MADE = '2027-03-01T09:00:00.000Z';
const RUN_AT = Date.parse('2027-03-02T09:00:00Z');
const START = {
  from: '2027-03-10T10:00:00Z',
  moved: '2027-03-11T14:00:00Z',
  cancelled: '2027-03-15T10:00:00Z',
  lapsed: '2027-03-20T10:00:00Z',
};
/** Each call of the store as its e-mails saw it: its time, host and sequence. */
const about = (start: string, host: string, sequence = 1): MailCall => ({
  sequence,
  host,
  start,
  end: plus(start, 30),
});
const movedCall: MailCall = {
  ...about(START.moved, 'ben'),
  previous: { start: START.from, end: plus(START.from, 30) },
  change: { by: 'staff', reason: 'Ana is ill; Ben takes it.' },
};

/** The calls whose invitations Ana was sent, and the time each was sent her for. */
const INVITED_OF_STEP_18 = [
  [ID.moved, START.from],
  [ID.cancelled, START.cancelled],
  [ID.lapsed, START.lapsed],
] as const;

/**
 * A job of every kind, as the code of step 18 queued it (about which enquiry, and what it carried):
 * a booked call's e-mails with the call as it was (which that code kept in columns of the job), the
 * notice of an enquiry with no call, a staff member's sign-in link, and a kind with no handler.
 */
const JOBS_OF_STEP_18: { id: string | null; kind: string; call?: MailCall; payload?: unknown }[] = [
  { id: ID.enquiry, kind: 'agency' },
  { id: ID.moved, kind: 'agency', call: about(START.from, 'ana', 0) },
  { id: ID.moved, kind: 'prospect', call: about(START.moved, 'ben') },
  { id: ID.moved, kind: 'host', call: movedCall },
  { id: ID.moved, kind: 'agency-move', call: movedCall },
  { id: ID.moved, kind: 'prospect-move', call: movedCall },
  { id: ID.moved, kind: 'host-move', call: { ...movedCall, change: { by: 'staff' } } },
  { id: ID.moved, kind: 'host-cancel', call: { ...movedCall, ...about(START.from, 'ana') } },
  {
    id: ID.moved,
    kind: 'prospect-reminder',
    call: { ...about(START.moved, 'ben'), remindMinutes: 1440 },
  },
  {
    id: ID.moved,
    kind: 'host-reminder',
    call: { ...about(START.moved, 'ben'), remindMinutes: 60 },
  },
  ...(['agency', 'prospect', 'host'] as const).flatMap((who) => [
    {
      id: ID.cancelled,
      kind: `${who}-cancel`,
      call: { ...about(START.cancelled, 'ana'), change: { by: 'staff' as const } },
    },
    { id: ID.lapsed, kind: `${who}-lapse`, call: about(START.lapsed, 'ana') },
  ]),
  { id: null, kind: SIGN_IN_JOB, payload: { ref: 'ref-18' } },
  { id: null, kind: 'calendar-write', payload: { host: 'ana' } },
];

/** The enquiries of the step-18 store, as that schema kept them (a call moved by the staff, …). */
async function fillStep18(run: Run) {
  const insert = `INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip,
      user_agent, call_start, call_end, call_host, call_sequence, call_moves, call_cancelled_at,
      call_confirmed_at, call_lapsed_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
  const { name, email, data, clientIp, userAgent } = call();
  /** A booked call's row but its cancellation, confirmation and lapse (ana's, but the moved one). */
  const booked = (id: string, start: string, sequence: number, moves: number): SQLInputValue[] => [
    ...[id, 'call', MADE, name, email, JSON.stringify(data), clientIp, userAgent],
    ...[start, plus(start, 30), start === START.moved ? 'ben' : 'ana', sequence, moves],
  ];
  const notice = enquiry();
  await run(insert, [
    ...[ID.enquiry, 'enquiry', MADE, notice.name, notice.email, JSON.stringify(notice.data)],
    ...[notice.clientIp, notice.userAgent, null, null, null, 0, 0, null, null, null],
  ]);
  await run(insert, [...booked(ID.moved, START.moved, 1, 1), null, MADE, null]);
  await run(insert, [...booked(ID.cancelled, START.cancelled, 1, 0), MADE, MADE, null]);
  await run(insert, [...booked(ID.lapsed, START.lapsed, 1, 0), MADE, null, MADE]);
  await run(
    `INSERT INTO staff_links (ref, email, seq, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
    ['ref-18', 'anna@a.example', 1, RUN_AT, RUN_AT + 15 * 60_000],
  );
  // Ana's invitations to the calls she gets cancellations of, sent before the upgrade: a host's
  // cancellation goes only to one whose calendar holds the call.
  for (const [id, start] of INVITED_OF_STEP_18)
    await run(
      `INSERT INTO outbox (enquiry_id, mail, next_attempt_at, sent_at, sequence, host, start_at,
         end_at) VALUES (?, 'host', 0, ?, 0, 'ana', ?, ?)`,
      [id, Date.parse(MADE), start, plus(start, 30)],
    );
  // Each job as step 18's store.ts queued it: the call's snapshot in columns of the job.
  for (const { id, kind, call: c, payload } of JOBS_OF_STEP_18)
    await run(
      `INSERT INTO outbox (enquiry_id, mail, payload, next_attempt_at, sequence, remind_minutes,
         host, start_at, end_at, previous_start_at, previous_end_at, changed_by, change_reason)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        ...[id, kind, payload === undefined ? null : JSON.stringify(payload), 0],
        ...[c?.sequence ?? 0, c?.remindMinutes ?? 0, c?.host ?? null, c?.start ?? null],
        ...[c?.end ?? null, c?.previous?.start ?? null, c?.previous?.end ?? null],
        ...[c?.change?.by ?? null, c?.change?.reason ?? null],
      ],
    );
}

/** The e-mails the jobs send, by the handlers the server registers, on the tests' clock. */
function runner(store: EnquiryStore) {
  const sent: Mail[] = [];
  const sender = { send: async (mail: Mail) => void sent.push(mail) };
  const content = {
    brand: 'Agency',
    email: 'hello@agency.example',
    hosts: [
      { id: 'ana', name: 'Ana Ruiz', email: 'ana@agency.example' },
      { id: 'ben', name: 'Ben Okafor', email: 'ben@agency.example' },
    ],
  };
  const setup = { from: 'website@agency.example', to: 'sales@agency.example', content };
  const siteUrl = 'https://www.agency.example';
  const handlers = new Map([
    ...mailHandlers({
      ...setup,
      store,
      sender,
      booking: { secret: 'b'.repeat(40), siteUrl, confirmMs: 7_200_000 },
      now: () => RUN_AT,
    }),
    jobHandler(
      SIGN_IN_JOB,
      signInMailHandler({
        store,
        secret: 's'.repeat(64),
        sender,
        siteUrl,
        setup,
        now: () => RUN_AT,
      }),
    ),
  ]);
  /** Each job due run by its kind's handler: what it came to, and the e-mail it sent. */
  return async () => {
    const ran = [];
    for (const job of await store.claimDue(RUN_AT, 100, 60_000)) {
      const handler = handlers.get(job.kind);
      const outcome = handler ? await handler(job) : 'no handler';
      if (handler) await store.markDone(job.id, RUN_AT);
      ran.push({
        kind: job.kind,
        enquiry: job.enquiry?.id,
        outcome,
        mail: sent.splice(0).map(comparable),
      });
    }
    return ran;
  };
}

/** An e-mail as two runs of one job make it alike: but its calendar stamp and a sign-in's secrets. */
const comparable = (mail: Mail) => ({
  ...mail,
  ...(mail.messageId.includes('@staff-sign-in.') && {
    messageId: '<…@staff-sign-in.invalid>',
    text: mail.text.replace(/token=\S+/, 'token=…'),
  }),
  ...(mail.icalEvent && {
    icalEvent: {
      ...mail.icalEvent,
      content: mail.icalEvent.content.replace(/DTSTAMP:\d{8}T\d{6}Z/, 'DTSTAMP:…'),
    },
  }),
});

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'a %s store of step 18 holding a job of every kind',
  (engine) => {
    it('runs each after the upgrade as the same job queued by today’s code: the same e-mail, once', async () => {
      const store = await openMadeAt[engine]({ sqlite: 18, postgresql: 15 }, fillStep18);
      // Who moved a call, known then from its e-mail to the prospect only, is kept on the call.
      expect((await store.findById(ID.moved))?.call?.movedBy).toBe('staff');
      expect((await store.findById(ID.cancelled))?.call?.movedBy).toBeUndefined();
      const runDue = runner(store);
      const before = await runDue();
      // Every job was claimed (a job of every kind), and every e-mail sent.
      const kinds = JOBS_OF_STEP_18.map(({ kind }) => kind);
      expect(new Set(kinds)).toEqual(new Set([...MAIL_KINDS, SIGN_IN_JOB, 'calendar-write']));
      expect(before.map(({ kind }) => kind).sort()).toEqual(kinds.sort());
      for (const { kind, outcome, mail } of before)
        if (kind !== 'calendar-write') {
          expect(outcome).toMatchObject({ done: true });
          expect(mail).toHaveLength(1);
        }
      // A kind this process has no handler for keeps its payload, and waits.
      const [waiting] = await store.claimDue(RUN_AT + 86_400_000, 100, 0);
      expect(waiting).toMatchObject({ kind: 'calendar-write', payload: { host: 'ana' } });

      // Ana's calendar holds the calls again (the runner marks each job it runs done, as sent), so
      // that her cancellations go again.
      for (const [id, start] of INVITED_OF_STEP_18)
        await store.transaction((tx) =>
          tx.queue([{ kind: 'host', dueAt: 0, payload: { call: about(start, 'ana', 0) } }], id),
        );
      await runDue();
      // The same jobs, queued by today's code (each kind's own payload), run alike.
      for (const { id, kind, call: c, payload } of JOBS_OF_STEP_18.slice(0, -1))
        await store.transaction((tx) =>
          tx.queue([{ kind, dueAt: 0, payload: c ? { call: c } : payload }], id ?? undefined),
        );
      const after = await runDue();
      expect(after).toEqual(before.filter(({ kind }) => kind !== 'calendar-write'));
      expect(await store.claimDue(RUN_AT + 86_400_000, 100, 0)).toHaveLength(1);
    });
  },
);

/** The names of the enquiries the desk's search finds for `text`, in `store`. */
const searchIn = (store: EnquiryStore) => async (text: string) =>
  (await store.desk.list({ list: 'all', text, offset: 0, limit: 10, now: RUN_AT })).map(
    (e) => e.name,
  );

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'a %s store whose search words kept their accents (before step 24)',
  (engine) => {
    it('finds its enquiries by their names typed without accents, as it finds new ones', async () => {
      const { data } = enquiry();
      const store = await openMadeAt[engine](stepsBefore(24), async (run) => {
        // The words as step 21 and the code before step 24 stored them: SQLite's lower() left
        // É as it was.
        for (const [id, name, words] of [
          ['old-1', 'José Müller', ['josé', 'müller']],
          ['old-2', 'ÉLODIE Dupont', ['Élodie', 'dupont']],
        ] as const) {
          await run(
            `INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
            [id, 'enquiry', MADE, name, `${id}@x.example`, JSON.stringify(data), '192.0.2.1', 'UA'],
          );
          for (const word of words)
            await run(`INSERT INTO enquiry_words (word, enquiry_id) VALUES (?, ?)`, [word, id]);
        }
      });
      const found = searchIn(store);
      expect(await found('jose muller')).toEqual(['José Müller']);
      expect(await found('josé')).toEqual(['José Müller']);
      expect(await found('elodie')).toEqual(['ÉLODIE Dupont']);
    });
  },
);

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'a %s store whose search words were stored before step 25',
  (engine) => {
    it('finds its enquiries by a part of a name and by letters typed without their marks', async () => {
      const { data } = enquiry();
      // More than one page of the step's reading (500 enquiries), so that it reads on past the first.
      const names = [
        'Jean-Luc Picard',
        'Siobhán O’Brien',
        'Nguyễn Thị Minh',
        'Γιώργος Παπαδόπουλος',
        ...Array.from({ length: 560 }, (_, i) => `Filler Person${i + 4}`),
      ];
      const store = await openMadeAt[engine](stepsBefore(25), async (run) => {
        const rows = names.map((name, i) => [
          `old-${String(i).padStart(4, '0')}`,
          'enquiry',
          MADE,
          name,
          `person${i}@x.example`,
          JSON.stringify(data),
          '192.0.2.1',
          'UA',
        ]);
        for (let i = 0; i < rows.length; i += 200) {
          const chunk = rows.slice(i, i + 200);
          await run(
            `INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent)
             VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
            chunk.flat(),
          );
        }
        // The words as step 21 stored them: the name's words whole, in lower case.
        const words = rows.flatMap(([id, , , name]) =>
          name!
            .toLowerCase()
            .split(' ')
            .map((word) => [word, id!]),
        );
        for (let i = 0; i < words.length; i += 400) {
          const chunk = words.slice(i, i + 400);
          await run(
            `INSERT INTO enquiry_words (word, enquiry_id) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
            chunk.flat(),
          );
        }
      });
      const found = searchIn(store);
      expect(await found('luc')).toEqual(['Jean-Luc Picard']);
      expect(await found('jean-luc')).toEqual(['Jean-Luc Picard']);
      expect(await found('obrien')).toEqual(['Siobhán O’Brien']);
      expect(await found("o'brien siobhan")).toEqual(['Siobhán O’Brien']);
      expect(await found('nguyen thi')).toEqual(['Nguyễn Thị Minh']);
      expect(await found('γιωργος')).toEqual(['Γιώργος Παπαδόπουλος']);
      // The last page's enquiries too, and by their e-mail, which the step adds.
      expect(await found('person563@x')).toEqual(['Filler Person563']);
    });
  },
);

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'a %s store whose moves kept only whether the prospect or the staff made them (before step 29)',
  (engine) => {
    it('still says so, naming no member and no time; a move from the desk then names its member and time', async () => {
      const [byStaff, byProspect] = [fixedId(21), fixedId(22)];
      const store = await openMadeAt[engine](stepsBefore(29), async (run) => {
        const { name, email, data, clientIp, userAgent } = call();
        for (const [id, by, start] of [
          [byStaff, 'staff', START.moved],
          [byProspect, 'prospect', START.lapsed],
        ] as const)
          await run(
            `INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent,
               call_start, call_end, call_host, call_sequence, call_moves, call_moved_from,
               call_moved_by, call_confirmed_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [
              ...[id, 'call', MADE, name, email, JSON.stringify(data), clientIp, userAgent],
              ...[start, plus(start, 30), 'ana', 1, 1, START.from, by, MADE],
            ],
          );
      });
      const deskCall = async (id: string) => {
        const stored = (await store.findById(id))!;
        const who = whoIn(new Map());
        return deskItem(stored, [], { who, hostName: (h) => h, where: () => undefined, now: 0 })
          .call;
      };
      const staff = (await store.findById(byStaff))!.call!;
      expect(staff).toMatchObject({ movedBy: 'staff', moves: 1 });
      expect(staff).not.toHaveProperty('movedByMember');
      expect(staff).not.toHaveProperty('movedAt');
      expect((await deskCall(byStaff))?.moved).toEqual({ by: 'the staff', at: undefined });
      expect((await deskCall(byProspect))?.moved).toEqual({ by: 'the prospect', at: undefined });
      // Moved again from the desk by Anna: her address and the time are kept.
      const moved = await new Bookings(store).moveCall(
        byStaff,
        {
          start: START.cancelled,
          end: plus(START.cancelled, 30),
          hosts: ['ana'],
          maxMoves: 3,
          change: { by: 'staff', who: 'Anna Reid' },
          member: 'anna@a.example',
        },
        false,
        RUN_AT,
      );
      expect(moved.status).toBe('moved');
      expect((await store.findById(byStaff))!.call).toMatchObject({
        movedBy: 'staff',
        movedByMember: 'anna@a.example',
        movedAt: new Date(RUN_AT).toISOString(),
      });
    });
  },
);
