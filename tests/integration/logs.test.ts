/**
 * The server's log, readable (the default) and LOG_FORMAT=json: one JSON object a line with its
 * time, level, message and request id; and in neither format a secret (the SMTP password, a
 * calendar feed's address, the booking secret, a signed link's token) nor a visitor's data (their
 * e-mail, name, message, address), even when mail and calendars fail and say so in the log.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IDEMPOTENCY_FIELD } from '../../src/domain/forms';
import { freePort } from '../support/server';
import { rawRequest } from '../support/raw-http';
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
  // A mail server that refuses every recipient: the outbox logs each failure.
  await servers.startSmtp(smtpPort, { refuses: () => true });
  const feedPort = (feeds.address() as AddressInfo).port;
  const server = await servers.start({
    ...(format === 'json' && { LOG_FORMAT: 'json' }),
    SMTP_URL: `smtp://agency:${secrets.smtpPassword}@127.0.0.1:${smtpPort}?ignoreTLS=true`,
    ENQUIRY_TO: 'sales@agency.example',
    ENQUIRY_FROM: 'website@agency.example',
    OUTBOX_POLL_MS: '100',
    OUTBOX_RETRY_BASE_MS: '100',
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

it('logs no secret and no visitor data in either format', () => {
  for (const [format, output] of Object.entries({ json, text })) {
    for (const [name, value] of Object.entries({ ...secrets, ...visitor }))
      expect(output, `${name} in the ${format} log`).not.toContain(value);
    expect(output, `an e-mail address in the ${format} log`).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
  }
});
