/**
 * An acknowledged enquiry is never lost: it survives kill -9, and it reaches
 * the inbox exactly once even when the SMTP server was down, across restarts.
 * The SMTP server is a real one (smtp-server) on loopback, in this process.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort, newDatabasePath, postForm, readStore, validEnquiry } from '../support/server';
import { stoppedAfterEach } from './stopped-after-each';

const servers = stoppedAfterEach();
const start = servers.start;
/** An SMTP server on loopback that keeps every message it accepts; closed after the test. */
const startSmtp = async (port: number) => (await servers.startSmtp(port)).received;

describe('durability', () => {
  it('every acknowledged enquiry is there after kill -9 under load', async () => {
    const database = newDatabasePath();
    const server = await start({ ENQUIRY_DB: database });
    const acknowledged: string[] = [];
    let stop = false;
    const worker = async () => {
      while (!stop) {
        try {
          const response = await postForm(`${server.url}/php/email.php`, validEnquiry);
          if (response.ok) acknowledged.push(((await response.json()) as { id: string }).id);
        } catch {
          // the server died mid-request: that request was not acknowledged
        }
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    // Killed in the middle of the load once it has acknowledged a good number (not after a fixed
    // time, which a busy machine can fill with fewer).
    await expect
      .poll(() => acknowledged.length, { timeout: 30_000, interval: 20 })
      .toBeGreaterThan(100);
    await server.kill9();
    stop = true;
    await Promise.all(workers);
    expect(acknowledged.length).toBeGreaterThan(100);

    const restarted = await start({ ENQUIRY_DB: database });
    expect((await fetch(`${restarted.url}/healthz`)).status).toBe(200);
    const ids = new Set((await readStore(database)).map((e) => e.id));
    const lost = acknowledged.filter((id) => !ids.has(id));
    expect(lost).toEqual([]);
  });
});

describe('delivery by e-mail', () => {
  it('retries while SMTP is down, sends each enquiry exactly once when it is back, across a restart', async () => {
    const smtpPort = await freePort();
    const database = newDatabasePath();
    const env = {
      ENQUIRY_DB: database,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
      ENQUIRY_TO: 'sales@agency.example',
      ENQUIRY_FROM: 'website@agency.example',
      JOBS_POLL_MS: '100',
      // Retries 0.2 s apart, doubling to at most 1 s: however long the attempts while SMTP is down
      // take on a busy machine, the next one comes within about a second of its return.
      JOBS_RETRY_BASE_MS: '200',
      JOBS_RETRY_MAX_MS: '1000',
    };
    const first = await start(env);
    const ids: string[] = [];
    for (const name of ['Grace', 'Ada']) {
      const response = await postForm(`${first.url}/php/email.php`, {
        ...validEnquiry,
        first_name: name,
      });
      ids.push(((await response.json()) as { id: string }).id);
    }
    // Nothing listens on the SMTP port: the queue of jobs keeps the mail and counts its attempts.
    await expect
      .poll(async () => (await readStore(database)).every((e) => e.mailAttempts >= 1))
      .toBe(true);
    expect((await readStore(database)).every((e) => e.mailedAt === null)).toBe(true);
    // Logged after the attempt is recorded (and piped from another process): it may come a moment later.
    await expect.poll(() => first.output()).toMatch(/not mailed yet/);

    // A restart while SMTP is still down, then SMTP comes up.
    await first.stop();
    const second = await start(env);
    const received = await startSmtp(smtpPort);
    await expect.poll(() => received.length).toBe(2);
    await expect
      .poll(async () => (await readStore(database)).every((e) => e.mailedAt !== null))
      .toBe(true);

    // Another restart sends nothing again.
    await second.stop();
    await start(env);
    await new Promise((r) => setTimeout(r, 800));
    expect(received).toHaveLength(2);

    const [mail] = received;
    expect(mail!.from).toBe('website@agency.example');
    expect(mail!.to).toEqual(['sales@agency.example']);
    expect(mail!.raw).toMatch(
      /^Subject: Enquiry from (Grace|Ada) Hopper: Web Development, Technical Consultancy/m,
    );
    expect(mail!.raw).toMatch(/^Reply-To: grace@example\.com/m);
    expect(mail!.raw).toMatch(/^Content-Type: text\/plain/m);
    expect(mail!.raw).toContain('A booking platform for 12 clinics.');
    const messageIds = received.map((m) => /^Message-ID: <([^@]+)@/m.exec(m.raw)?.[1]).sort();
    expect(messageIds).toEqual([...ids].sort());
  });

  it('one idempotency key posted 5 times at once stores one enquiry and sends one e-mail', async () => {
    const smtpPort = await freePort();
    const received = await startSmtp(smtpPort);
    const database = newDatabasePath();
    const server = await start({
      ENQUIRY_DB: database,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
      ENQUIRY_TO: 'sales@agency.example',
      ENQUIRY_FROM: 'website@agency.example',
      JOBS_POLL_MS: '100',
    });
    const key = crypto.randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        postForm(`${server.url}/send-mail.php`, {
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          message: 'A call about an app, please.',
          idempotency_key: key,
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const ids = await Promise.all(
      responses.map(async (r) => ((await r.json()) as { id: string }).id),
    );
    expect(new Set(ids).size).toBe(1);
    // Later, a retry of the same submission gets the same answer, natively too.
    const native = await postForm(
      `${server.url}/send-mail.php`,
      { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Again.', idempotency_key: key },
      { Accept: 'text/html' },
    );
    expect(native.status).toBe(303);
    expect(native.headers.get('location')).toBe('/thankyou');

    await expect.poll(() => received.length).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(received).toHaveLength(1);
    const stored = await readStore(database);
    expect(stored.map((e) => [e.id, e.idempotencyKey])).toEqual([[ids[0], key]]);
  });

  it('CR/LF in any field cannot add a header, and spam is stored but not mailed', async () => {
    const smtpPort = await freePort();
    const received = await startSmtp(smtpPort);
    const server = await start({
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
      ENQUIRY_TO: 'sales@agency.example',
      ENQUIRY_FROM: 'website@agency.example',
      JOBS_POLL_MS: '100',
    });
    const injected = await postForm(`${server.url}/php/email.php`, {
      ...validEnquiry,
      first_name: 'Eve\r\nBcc: victim@example.com',
      last_name: 'X\nX-Injected: yes',
    });
    expect(injected.status).toBe(200);
    const call = await postForm(`${server.url}/send-mail.php`, {
      name: 'Mallory\r\nCc: victim@example.com',
      email: 'mallory@example.com',
      message: 'Hi\r\n.\r\nMAIL FROM:<x@y>',
    });
    expect(call.status).toBe(200);
    const spam = await postForm(`${server.url}/php/email.php`, {
      ...validEnquiry,
      fax_number: 'buy now',
    });
    expect(spam.status).toBe(200);

    await expect.poll(() => received.length).toBe(2);
    await new Promise((r) => setTimeout(r, 500));
    expect(received).toHaveLength(2);
    for (const mail of received) {
      const headers = mail.raw.split(/\r?\n\r?\n/)[0]!;
      expect(headers).not.toMatch(/^(Bcc|Cc|X-Injected):/im);
      expect(mail.to).toEqual(['sales@agency.example']);
    }
    expect((await readStore(server.database)).filter((e) => e.spam)).toHaveLength(1);
  });

  it('without SMTP_URL, enquiries are stored and the server says once that delivery is off', async () => {
    const server = await start();
    for (let i = 0; i < 3; i++) await postForm(`${server.url}/php/email.php`, validEnquiry);
    expect(server.output().match(/e-mail delivery is off/g)).toHaveLength(1);
    expect(await readStore(server.database)).toHaveLength(3);
  });
});

describe('for staff', () => {
  it('npm run enquiries lists and exports the stored enquiries', async () => {
    const server = await start();
    await postForm(`${server.url}/php/email.php`, {
      ...validEnquiry,
      project: '=HYPERLINK("x"), "quoted"',
    });
    await postForm(`${server.url}/send-mail.php`, {
      name: 'Ada',
      email: 'ada@example.com',
      message: 'Call me',
    });
    const run = promisify(execFile);
    const env = { ...process.env, ENQUIRY_DB: server.database };
    const list = await run(process.execPath, ['src/server/cli.ts'], { env });
    expect(list.stdout).toContain('Enquiry from Grace Hopper <grace@example.com>');
    expect(list.stdout).toContain('Call request from Ada <ada@example.com>');
    const csv = await run(process.execPath, ['src/server/cli.ts', '--csv'], { env });
    const lines = csv.stdout.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,received,kind,name,email,phone,services,message,mailed,call_start,call_end,call_status,mail_failure,call_host,call_moves,mails_sent,mails_waiting,mails_failed,call_confirmed_at,handled,handled_by,handled_at,notes,call_state,cancelled_by,cancel_reason,call_host_name,moved_by,moved_at',
    );
    expect(lines).toHaveLength(3);
    // A formula is neutralised and quotes are escaped.
    expect(lines[1]).toContain(`"'=HYPERLINK(""x""), ""quoted"""`);
  });
});
