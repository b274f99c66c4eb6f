/**
 * The server's log, readable (the default) and LOG_FORMAT=json: one JSON object a line with its
 * time, level, message and request id; and in neither format a secret (the SMTP password, a
 * calendar feed's address, the booking secret, a signed link's token) nor a visitor's data (their
 * e-mail, name, message, address), even when mail and calendars fail and say so in the log. A
 * call's life (booked, moved, its reminders sent, cancelled, an e-mail given up) is a line each, by
 * the call's reference, in both formats, with none of its prospect's data either. A setting given
 * by its older name (OUTBOX_POLL_MS for JOBS_POLL_MS) is said once, at start, with its new name.
 */
import { DatabaseSync } from 'node:sqlite';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_FIELD } from '../../src/domain/forms';
import type { Received } from '../../scripts/smtp';
import { decoded } from '../support/mime';
import { freePort, type RunningServer } from '../support/server';
import { rawRequest } from '../support/raw-http';
import { freeSlots, onWeekday } from './calls';
import { stoppedAfterEach } from './stopped-after-each';

const servers = stoppedAfterEach();

const secrets = {
  smtpPassword: 'smtp-pass-Q7wZ3',
  feedPath: 'private-feed-K9xY2',
  bookingSecret: 'booking-secret-0123456789abcdef0123456789abcdef',
  linkToken: 'link-token-V4nB8',
};
const visitor = {
  email: 'ada.visitor-55@example.org',
  name: 'Adalinde',
  surname: 'Quarterstaff',
  message: 'Our secret project codenamed Bluefinch',
  address: '127.0.0.2',
};

// A calendar host that refuses the feed: the server says so in its log, naming the host only.
let feeds: Server;
beforeAll(async () => {
  feeds = createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((resolve) => feeds.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => feeds.close(resolve)));

async function runServer(format: 'json' | 'text') {
  const smtpPort = await freePort();
  // A mail server that refuses every recipient: the queue of jobs logs each failure.
  await servers.startSmtp(smtpPort, { refuses: () => true });
  const feedPort = (feeds.address() as AddressInfo).port;
  const server = await servers.start({
    ...(format === 'json' && { LOG_FORMAT: 'json' }),
    SMTP_URL: `smtp://agency:${secrets.smtpPassword}@127.0.0.1:${smtpPort}?ignoreTLS=true`,
    ENQUIRY_TO: 'sales@agency.example',
    ENQUIRY_FROM: 'website@agency.example',
    // The queue's settings by their new names, and (the JSON run) by the old ones, still read.
    ...(format === 'json'
      ? { OUTBOX_POLL_MS: '100', OUTBOX_RETRY_BASE_MS: '100' }
      : { JOBS_POLL_MS: '100', JOBS_RETRY_BASE_MS: '100' }),
    CALENDAR_FEEDS: `anna=http://127.0.0.1:${feedPort}/${secrets.feedPath}/basic.ics`,
    BOOKING_SECRET: secrets.bookingSecret,
  });
  const body = new URLSearchParams({
    first_name: visitor.name,
    last_name: visitor.surname,
    email: visitor.email,
    contact: '+44 20 7946 0958',
    service: 'Web Development',
    project: visitor.message,
    [IDEMPOTENCY_FIELD]: `logs-${format}`,
  }).toString();
  const posted = await rawRequest(
    server.url,
    `POST /php/email.php HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nOrigin: ${server.url}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\n` +
      `Content-Length: ${body.length}`,
    { body, localAddress: visitor.address },
  );
  expect(posted.status).toBe(200);
  // A signed link with a token that is not one: refused, its token in no log line.
  await fetch(`${server.url}/schedule/booked?ref=X&token=${secrets.linkToken}`);
  await fetch(`${server.url}/staff/sign-in?token=${secrets.linkToken}`);
  // Until the log says the mail failed and the calendar could not be read.
  while (
    !/not mailed yet|failed for good/.test(server.output()) ||
    !/could not be read/.test(server.output())
  )
    await new Promise((resolve) => setTimeout(resolve, 50));
  await server.stop();
  return server.output();
}

let json: string;
let text: string;
beforeAll(async () => {
  [json, text] = await Promise.all([runServer('json'), runServer('text')]);
});

it('writes one JSON object a line with LOG_FORMAT=json, with the request id where there is one', () => {
  const lines = json.trim().split('\n');
  const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const record of records) {
    expect(Object.keys(record).slice(0, 3)).toEqual(['time', 'level', 'msg']);
    expect(new Date(record.time as string).toISOString()).toBe(record.time);
    expect(['info', 'warn', 'error']).toContain(record.level);
  }
  expect(records.some((r) => String(r.msg).startsWith('Serving the site at'))).toBe(true);
  // The store opens at the first request (healthz after the start): that line has its id.
  expect(records.find((r) => String(r.msg).startsWith('Enquiries are stored'))?.requestId).toMatch(
    /^[0-9a-f-]{36}$/,
  );
});

it('keeps the readable lines by default', () => {
  expect(text).toMatch(/^Serving the site at http:\/\/localhost:\d+$/m);
  expect(text).toMatch(/could not be read/);
  expect(text).not.toMatch(/^\{/m);
});

it('says at start, once each, that a setting goes by an older name, and the name to use', () => {
  const records = json
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(records.filter((r) => String(r.msg).includes('OUTBOX_'))).toEqual([
    expect.objectContaining({
      level: 'warn',
      msg: 'OUTBOX_POLL_MS is now called JOBS_POLL_MS: it is still read, but rename it.',
    }),
    expect.objectContaining({
      level: 'warn',
      msg: 'OUTBOX_RETRY_BASE_MS is now called JOBS_RETRY_BASE_MS: it is still read, but rename it.',
    }),
  ]);
  // Said before the server serves: the first lines of its log.
  expect(String(records[0]!.msg)).toMatch(/^OUTBOX_POLL_MS/);
  expect(text).not.toMatch(/OUTBOX_|JOBS_/);
});

it('logs no secret and no visitor data in either format', () => {
  for (const [format, output] of Object.entries({ json, text })) {
    for (const [name, value] of Object.entries({ ...secrets, ...visitor }))
      expect(output, `${name} in the ${format} log`).not.toContain(value);
    expect(output, `an e-mail address in the ${format} log`).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
  }
});

/** A post as the visitor's browser sends it, from the visitor's address; its answer. */
function postAsVisitor(server: RunningServer, path: string, fields: Record<string, string>) {
  const body = new URLSearchParams(fields).toString();
  return rawRequest(
    server.url,
    `POST ${path} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nOrigin: ${server.url}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\n` +
      `Content-Length: ${body.length}`,
    { body, localAddress: visitor.address },
  );
}

/** Waits until `check` holds, 10 s at most (in a beforeAll, where expect.poll is not). */
async function until(check: () => boolean, what: string) {
  for (const end = Date.now() + 10_000; !check(); await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() > end) throw new Error(`Waited 10 s for ${what}`);
}

/** Waits until the server's log has a line matching `pattern`. */
const logged = (server: RunningServer, pattern: RegExp) =>
  until(() => pattern.test(server.output()), String(pattern));

/**
 * A call's life on a server of its own: booked from the visitor's address, moved and cancelled
 * with the links of its e-mail, its reminders sent (made due by the test), and the agency's
 * e-mails refused for good by the mail server. Its log, and the call's reference.
 */
async function callsLife(format: 'json' | 'text') {
  const { server, mails } = await servers.startWithMail(
    { ...(format === 'json' && { LOG_FORMAT: 'json' }), BOOKING_SECRET: secrets.bookingSecret },
    { refuses: (address) => address === 'sales@agency.example' },
  );
  // Wednesdays are Anna's alone.
  const wednesdays = onWeekday((await freeSlots(server)).slots, 'Wednesday');
  const booked = await postAsVisitor(server, '/send-mail.php', {
    name: `${visitor.name} ${visitor.surname}`,
    email: visitor.email,
    message: visitor.message,
    slot: wednesdays[0]!.start,
    [IDEMPOTENCY_FIELD]: `call-life-${format}`,
  });
  expect(booked.status).toBe(200);
  // The answer's JSON (its body may come in chunks): the call's id, whose reference (its first
  // eight characters, as the desk shows it) the log writes.
  const id = /"id":"([^"]+)"/.exec(booked.body)![1]!;
  const ref = id.slice(0, 8);
  await until(() => mails.some((m) => m.to.includes(visitor.email)), 'the prospect’s e-mail');
  const mail = mails.find((m) => m.to.includes(visitor.email))!;
  const token = (purpose: string, received: Received) =>
    new RegExp(`/schedule/${purpose}\\?token=([\\w.-]+)`).exec(decoded(received.raw))![1]!;
  const moved = await postAsVisitor(server, '/schedule/change', {
    token: token('change', mail),
    slot: wednesdays[4]!.start,
  });
  expect(moved.status).toBe(200);
  // The day before the call has come (and the hour before): its reminders are due.
  // The server may be writing (its jobs, its health): wait for its lock, as its own CLI does.
  const db = new DatabaseSync(server.database, { timeout: 5000 });
  db.exec(`UPDATE jobs SET next_attempt_at = 0 WHERE kind LIKE '%-reminder' AND done_at IS NULL`);
  db.close();
  await logged(server, /reminder to the host of enquiry \S+ was sent/);
  await logged(server, /reminder to the prospect of enquiry \S+ was sent/);
  const cancelled = await postAsVisitor(server, '/schedule/cancel', {
    token: token('cancel', mail),
  });
  expect(cancelled.status).toBe(200);
  await logged(server, /The cancellation to the agency of enquiry \S+ failed for good/);
  await server.stop();
  return { output: server.output(), id, ref, slots: [wednesdays[0]!.start, wednesdays[4]!.start] };
}

describe('a call’s life in the log', () => {
  let lives: { format: string; output: string; id: string; ref: string; slots: string[] }[];
  beforeAll(async () => {
    lives = await Promise.all(
      (['json', 'text'] as const).map(async (format) => ({ format, ...(await callsLife(format)) })),
    );
  }, 60_000);

  /** The log's messages, whichever the format. */
  const messages = (format: string, output: string) =>
    output
      .trim()
      .split('\n')
      .map((line) => (format === 'json' ? String(JSON.parse(line).msg) : line));

  it('is a line each: booked, moved, each reminder sent, cancelled, each e-mail given up, by its reference', () => {
    for (const { format, output, ref, slots } of lives) {
      const lines = messages(format, output);
      const about = lines.filter((line) => line.includes(ref));
      const utc = (slot: string) => slot.replace(/\.000Z$/, 'Z');
      expect(
        about.filter((line) => line.startsWith(`Call ${ref}:`)),
        format,
      ).toEqual([
        `Call ${ref}: booked for ${utc(slots[0]!)}, with anna.`,
        `Call ${ref}: moved by its prospect from ${utc(slots[0]!)} to ${utc(slots[1]!)}, with anna.`,
        `Call ${ref}: cancelled by its prospect (it was for ${utc(slots[1]!)}).`,
      ]);
      const reminders = about.filter((line) => / reminder .* was sent\.$/.test(line));
      expect(reminders.sort(), format).toEqual([
        `The reminder to the host of enquiry ${ref} was sent.`,
        `The reminder to the host of enquiry ${ref} was sent.`,
        `The reminder to the prospect of enquiry ${ref} was sent.`,
        `The reminder to the prospect of enquiry ${ref} was sent.`,
      ]);
      // The agency's e-mails, refused for good: the booking's, the move's, the cancellation's.
      const givenUp = about.filter((line) => line.includes('failed for good'));
      expect(
        givenUp.map((line) => line.split(' of enquiry')[0]),
        format,
      ).toEqual([
        'The e-mail to the agency',
        'The move to the agency',
        'The cancellation to the agency',
      ]);
    }
  });

  it('names no visitor, their address or what they wrote, nor a call’s whole id, in either format', () => {
    for (const { format, output, id } of lives) {
      for (const [name, value] of Object.entries({ ...secrets, ...visitor }))
        expect(output, `${name} in the ${format} log`).not.toContain(value);
      // With e-mail off, the booked page of the whole id shows the call's cancel link.
      expect(output, `the call's id in the ${format} log`).not.toContain(id);
      expect(output, `an e-mail address in the ${format} log`).not.toMatch(
        /[\w.+-]+@[\w-]+\.[\w.]+/,
      );
    }
  });
});
