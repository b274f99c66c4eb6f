/**
 * More than one server process on one PostgreSQL database (DATABASE_URL): one store, one queue of jobs
 * and one rate limit for all of them; a database that goes away gets 503s, never a false success,
 * and the servers recover by themselves when it is back.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres } from '../../scripts/postgres.mjs';
import { signCallToken } from '../../src/server/call-token';
import { freePort, postForm, readStore, validEnquiry } from '../support/server';
import { book, freeSlots, oneHostSlot, onWeekday } from './calls';
import { stoppedAfterEach } from './stopped-after-each';

const servers = stoppedAfterEach();

// One PostgreSQL server for this file (the only one of the project that needs it), a database of
// its own for each test (a role and schema: scripts/postgres.mjs).
let postgres: Awaited<ReturnType<typeof startPostgres>>;
beforeAll(async () => {
  postgres = await startPostgres({ durable: false });
}, 60_000);
afterAll(() => postgres.stop());
const newPostgresDatabase = () => postgres.createStore();

const posted = async (response: Response) => {
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
};

describe('two server processes on one database', () => {
  it('store into one store, that `npm run enquiries` lists whole, a NUL read as U+FFFD', async () => {
    const DATABASE_URL = await newPostgresDatabase();
    const [a, b] = await Promise.all([
      servers.start({ DATABASE_URL }),
      servers.start({ DATABASE_URL }),
    ]);
    const ids: string[] = [];
    for (const [i, server] of [a, b, a, b].entries()) {
      ids.push(
        await posted(
          // (A NUL, which PostgreSQL's text cannot hold: such a post was lost, "try again".)
          await postForm(`${server.url}/php/email.php`, {
            ...validEnquiry,
            first_name: `P${i}`,
            project: `${validEnquiry.project}\u0000`,
          }),
        ),
      );
    }
    const stored = await readStore(DATABASE_URL);
    expect(stored.map((e) => e.id)).toEqual(ids);
    expect(JSON.stringify(stored[0])).toContain(`${validEnquiry.project}\uFFFD`);
    const { stdout } = await promisify(execFile)(process.execPath, ['src/server/cli.ts', '--csv'], {
      env: { ...process.env, DATABASE_URL },
    });
    expect(stdout.trim().split('\r\n')).toHaveLength(1 + ids.length);
    for (const id of ids) expect(stdout).toContain(id);
  });

  it('book the last free host of a time once, whichever process each prospect reaches', async () => {
    const DATABASE_URL = await newPostgresDatabase();
    const [a, b] = await Promise.all([
      servers.start({ DATABASE_URL }),
      servers.start({ DATABASE_URL }),
    ]);
    const { slots } = await freeSlots(a);
    // A Wednesday: only Anna takes calls then. Four prospects at once, two on each process.
    const wednesday = oneHostSlot(slots);
    const once = await Promise.all(
      [a, b, a, b].map((server, i) =>
        book(server, wednesday.start, { email: `w${i}@example.com` }),
      ),
    );
    expect(once.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    // A Monday morning: Anna and Ben. Three prospects at once: one each, and a 409.
    const monday = onWeekday(slots, 'Monday')[0]!;
    const twice = await Promise.all(
      [a, b, a].map((server, i) => book(server, monday.start, { email: `m${i}@example.com` })),
    );
    expect(twice.map((r) => r.status).sort()).toEqual([200, 200, 409]);
    const hosts = (await readStore(DATABASE_URL))
      .filter((e) => e.call?.start === monday.start)
      .map((e) => e.call!.host)
      .sort();
    expect(hosts).toEqual(['anna', 'ben']);
  });

  it('count one rate limit for a client, whichever process it reaches', async () => {
    const DATABASE_URL = await newPostgresDatabase();
    const env = { DATABASE_URL, RATE_LIMIT: 'on', RATE_LIMIT_MAX: '3' };
    const [a, b] = await Promise.all([servers.start(env), servers.start(env)]);
    const statuses = [];
    for (const server of [a, b, a, b]) {
      statuses.push((await postForm(`${server.url}/php/email.php`, validEnquiry)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await readStore(DATABASE_URL)).toHaveLength(3);
  });

  it('run the queue of jobs together: every e-mail sent once', async () => {
    const DATABASE_URL = await newPostgresDatabase();
    const smtpPort = await freePort();
    const smtp = await servers.startSmtp(smtpPort);
    const env = {
      DATABASE_URL,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
      ENQUIRY_TO: 'sales@agency.example',
      ENQUIRY_FROM: 'website@agency.example',
      JOBS_POLL_MS: '50',
    };
    const [a, b] = await Promise.all([servers.start(env), servers.start(env)]);
    const ids = await Promise.all(
      Array.from({ length: 24 }, async (_, i) =>
        posted(
          await postForm(`${(i % 2 ? a : b).url}/php/email.php`, {
            ...validEnquiry,
            first_name: `P${i}`,
          }),
        ),
      ),
    );
    await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBe(24);
    await new Promise((r) => setTimeout(r, 500));
    const messageIds = smtp.received.map((m) => /^Message-ID: <([^@]+)@/m.exec(m.raw)?.[1]);
    expect(messageIds.sort()).toEqual([...ids].sort());
  });
});

describe('reminders, with two server processes', () => {
  it('are sent once each, even when the process sending them is killed (kill -9) mid-send', async () => {
    const DATABASE_URL = await newPostgresDatabase();
    // The first process's SMTP server takes the booking's e-mails and hangs on its reminders.
    const [hangingPort, smtpPort] = [await freePort(), await freePort()];
    const stalled: { raw: string }[] = [];
    await servers.startSmtp(hangingPort, {
      stalls: (raw) => /^Subject: Reminder/m.test(raw),
      stalled: stalled as never,
    });
    const smtp = await servers.startSmtp(smtpPort);
    const env = (port: number) => ({
      DATABASE_URL,
      BOOKING_SECRET: 'postgres-test-secret-0123456789abcdef',
      SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
      ENQUIRY_TO: 'sales@agency.example',
      ENQUIRY_FROM: 'website@agency.example',
      JOBS_POLL_MS: '50',
      // A claim of a process that died is taken over this long after it was made. Longer than a
      // send beside the other phases on a slow machine: at 1.5 s, a live process's send outlasted
      // its claim, and the other process sent the same reminder again.
      JOBS_LEASE_MS: '6000',
    });
    const first = await servers.start(env(hangingPort));
    const { slots } = await freeSlots(first);
    const slot = oneHostSlot(slots, 2);
    const response = await book(first, slot.start);
    expect(response.status).toBe(200);
    // The day before the call has come: its 24-hour reminders are due (its 1-hour ones are not).
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    const dayBefore = `kind LIKE '%-reminder' AND (payload::jsonb -> 'call' ->> 'remindMinutes') = '1440'`;
    const reminders = `SELECT kind, done_at FROM jobs WHERE ${dayBefore} ORDER BY kind`;
    try {
      expect((await client.query(reminders)).rows.map((r) => r.kind)).toEqual([
        'host-reminder',
        'prospect-reminder',
      ]);
      await client.query(`UPDATE jobs SET next_attempt_at = 0 WHERE ${dayBefore}`);
      // The first process has claimed both and is sending them: it dies before they are taken.
      await expect.poll(() => stalled.length).toBe(2);
      await first.kill9();
      // Two processes share the store from now on; whichever claims a reminder once its lease is
      // over sends it.
      await Promise.all([servers.start(env(smtpPort)), servers.start(env(smtpPort))]);
      await expect
        .poll(async () => (await client.query(reminders)).rows.every((r) => r.done_at !== null), {
          timeout: 60_000,
        })
        .toBe(true);
    } finally {
      await client.end();
    }
    const sent = smtp.received.filter((mail) => /^Subject: Reminder/m.test(mail.raw));
    expect(sent.map((mail) => mail.to).sort()).toEqual([
      ['ada@example.com'],
      ['anna@northgate-digital.example'],
    ]);
  });
});

describe('a database that goes away', () => {
  // The file's server, stopped and started by the test; running again for the next one.
  afterEach(() => postgres.start());

  it('gets 503 with a clear message, never a false success, and the server recovers by itself', async () => {
    const DATABASE_URL = await newPostgresDatabase();
    const server = await servers.start({
      DATABASE_URL,
      BOOKING_SECRET: 'postgres-test-secret-0123456789abcdef',
    });
    const health = async () => {
      const response = await fetch(`${server.url}/healthz`);
      return { status: response.status, body: await response.json() };
    };
    expect(await health()).toEqual({
      status: 200,
      body: {
        status: 'ok',
        store: { kind: 'postgresql', state: 'writable' },
        jobs: { failed: 0 },
        mail: { undeliverable: 0 },
      },
    });
    const before = await posted(await postForm(`${server.url}/php/email.php`, validEnquiry));

    await postgres.pause();
    expect(await health()).toMatchObject({
      status: 503,
      body: { store: { kind: 'postgresql', state: 'unavailable' } },
    });
    const refused = await postForm(`${server.url}/php/email.php`, validEnquiry);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toEqual({
      error:
        'Enquiries cannot be taken right now, and nothing was sent. Please try again in a minute.',
    });
    // A visitor without JavaScript gets the form again with the same message, not a thank-you page.
    const native = await postForm(`${server.url}/php/email.php`, validEnquiry, {
      Accept: 'text/html',
    });
    expect(native.status).toBe(503);
    expect(await native.text()).toContain('Enquiries cannot be taken right now');
    // The booking pages say so too, rather than failing.
    const slots = await fetch(`${server.url}/schedule/slots.json`);
    expect(slots.status).toBe(503);
    expect(await slots.json()).toEqual({ error: 'The free times cannot be loaded right now.' });
    const schedule = await fetch(`${server.url}/schedule`);
    expect(schedule.status).toBe(503);
    expect(await schedule.text()).toContain('The free times cannot be loaded right now.');
    const booked = await fetch(`${server.url}/schedule/booked?ref=${crypto.randomUUID()}`);
    expect(booked.status).toBe(503);
    expect(await booked.text()).toContain('We cannot show your booking just now');
    // A call's own links, validly signed, say so too: never an error page.
    const id = crypto.randomUUID();
    const start = Date.now() + 86_400_000;
    for (const [purpose, words] of [
      ['cancel', 'Calls cannot be cancelled here right now'],
      ['change', 'Calls cannot be moved here right now'],
      ['confirm', 'Calls cannot be confirmed here right now'],
    ] as const) {
      const token = signCallToken(purpose, id, 0, start, 'postgres-test-secret-0123456789abcdef');
      const page = await fetch(`${server.url}/schedule/${purpose}?token=${token}`);
      expect(page.status, purpose).toBe(503);
      expect(await page.text()).toContain(words);
    }
    // A member at the desk, whose session cannot be read now: the desk's page that says so, not an
    // error (tests/integration/desk-unavailable.test.ts reads it whole). The cookie by either name:
    // this server's SITE_URL is the build's, on https.
    const token = 'a'.repeat(43);
    const desk = await fetch(`${server.url}/staff`, {
      headers: { Accept: 'text/html', Cookie: `staff=${token}; __Host-staff=${token}` },
      redirect: 'manual',
    });
    expect(desk.status).toBe(503);
    expect(await desk.text()).toContain('The enquiries cannot be read right now');

    await postgres.start();
    await expect.poll(async () => (await health()).status, { timeout: 15_000 }).toBe(200);
    const after = await posted(await postForm(`${server.url}/php/email.php`, validEnquiry));
    expect((await readStore(DATABASE_URL)).map((e) => e.id)).toEqual([before, after]);
  });

  it('at start: the server starts, answers 503, and takes enquiries once the database is up', async () => {
    const DATABASE_URL = await newPostgresDatabase();
    await postgres.pause();
    const server = await servers.start({ DATABASE_URL });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(503);
    expect((await postForm(`${server.url}/php/email.php`, validEnquiry)).status).toBe(503);
    await postgres.start();
    await expect
      .poll(async () => (await fetch(`${server.url}/healthz`)).status, { timeout: 15_000 })
      .toBe(200);
    await posted(await postForm(`${server.url}/php/email.php`, validEnquiry));
    expect(await readStore(DATABASE_URL)).toHaveLength(1);
  });
});
