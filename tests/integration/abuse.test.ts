/** The rate limit, forged X-Forwarded-For, HSTS behind a trusted proxy, and the optional captcha. */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  freePort,
  postForm,
  startServer,
  validEnquiry,
  type RunningServer,
} from '../support/server';
import { booking, freeSlots } from './calls';

const running: RunningServer[] = [];
const stubs: Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
  await Promise.all(stubs.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function start(env: Record<string, string>) {
  const server = await startServer(env);
  running.push(server);
  return server;
}

describe('the rate limit', () => {
  it('answers 429 with Retry-After past the limit, and a forged X-Forwarded-For does not help', async () => {
    const server = await start({
      RATE_LIMIT: 'on',
      RATE_LIMIT_MAX: '3',
      RATE_LIMIT_WINDOW_MS: '60000',
    });
    const url = `${server.url}/php/email.php`;
    for (let i = 0; i < 3; i++) expect((await postForm(url, validEnquiry)).status).toBe(200);
    const limited = await postForm(url, validEnquiry);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(50);
    expect(retryAfter).toBeLessThanOrEqual(60);
    for (const forged of ['1.2.3.4', '5.6.7.8, 9.9.9.9']) {
      expect((await postForm(url, validEnquiry, { 'X-Forwarded-For': forged })).status).toBe(429);
    }
    // Both forms count towards one limit per client.
    expect(
      (await postForm(`${server.url}/send-mail.php`, { name: 'a', email: 'a@b.co', message: 'm' }))
        .status,
    ).toBe(429);
    // A native post is told in a page, and keeps what was typed.
    const page = await postForm(url, validEnquiry, { Accept: 'text/html' });
    expect(page.status).toBe(429);
    const html = await page.text();
    expect(html).toContain('try again in 1 minute');
    expect(html).toContain('value="grace@example.com"');
  });

  it('invalid posts do not use up the limit', async () => {
    const server = await start({ RATE_LIMIT: 'on', RATE_LIMIT_MAX: '2' });
    const url = `${server.url}/php/email.php`;
    for (let i = 0; i < 5; i++) expect((await postForm(url, { first_name: 'x' })).status).toBe(422);
    expect((await postForm(url, validEnquiry)).status).toBe(200);
  });

  it('behind a trusted proxy, clients are told apart by X-Forwarded-For (an IPv6 client by its /64), and HTTPS gets HSTS', async () => {
    const server = await start({
      RATE_LIMIT: 'on',
      RATE_LIMIT_MAX: '2',
      TRUSTED_PROXIES: '127.0.0.1',
    });
    const url = `${server.url}/php/email.php`;
    const from = (client: string) => postForm(url, validEnquiry, { 'X-Forwarded-For': client });
    // One IPv4 address: the limit's two posts, then 429.
    expect((await from('203.0.113.1')).status).toBe(200);
    expect((await from('203.0.113.1')).status).toBe(200);
    expect((await from('203.0.113.1')).status).toBe(429);
    expect((await from('203.0.113.2')).status).toBe(200);
    // One home connection's /64 is one client, whichever of its addresses a post comes from: the
    // same two posts, then 429. The next /64 is another client.
    expect((await from('2001:db8:5:6::1')).status).toBe(200);
    expect((await from('2001:db8:5:6:ffff:ffff:ffff:2')).status).toBe(200);
    for (const address of ['2001:db8:5:6::3', '2001:db8:5:6:1234::abcd', '::ffff:203.0.113.1'])
      expect((await from(address)).status, address).toBe(429);
    expect((await from('2001:db8:5:7::1')).status).toBe(200);
    const https = await fetch(`${server.url}/`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toMatch(/max-age=\d{8}/);
  });

  it('behind a trusted proxy, bookings from one /48 stop at the network cap; another network books', async () => {
    const server = await start({
      TRUSTED_PROXIES: '127.0.0.1',
      BOOKING_SECRET: 'test-secret-0123456789abcdef0123456789',
      BOOKING_CAP: '2',
      BOOKING_NETWORK_CAP: '3',
    });
    const { slots } = await freeSlots(server);
    const bookFrom = (i: number, client: string) =>
      postForm(
        `${server.url}/send-mail.php`,
        booking(slots[i]!.start, { email: `person${i}@example.com` }),
        { 'X-Forwarded-For': client },
      );
    // Three /64s of one /48: one call each, up to the network's three.
    for (let i = 0; i < 3; i++) expect((await bookFrom(i, `2001:db8:9:${i}::1`)).status).toBe(200);
    const refused = await bookFrom(3, '2001:db8:9:ff::1');
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: Record<string, string> }).errors).toEqual({
      slot: expect.stringMatching(/^There are 3 calls booked with us already from your network\./),
    });
    expect((await freeSlots(server)).slots.map((s) => s.start)).toContain(slots[3]!.start);
    expect((await bookFrom(3, '2001:db8:10::1')).status).toBe(200);
  });

  it('behind a trusted proxy that writes a port into X-Forwarded-For, a new port is not a new client', async () => {
    const server = await start({
      RATE_LIMIT: 'on',
      RATE_LIMIT_MAX: '5',
      TRUSTED_PROXIES: '127.0.0.1',
      BOOKING_SECRET: 'test-secret-0123456789abcdef0123456789',
      BOOKING_CAP: '2',
    });
    const url = `${server.url}/php/email.php`;
    const statuses = [];
    for (let port = 51_234; port < 51_242; port++)
      statuses.push(
        (await postForm(url, validEnquiry, { 'X-Forwarded-For': `203.0.113.7:${port}` })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    // An entry that is not an address counts as the proxy: one share for all of them, not a new
    // client each, whatever the client wrote to its left.
    const junk = ['unknown', '_hidden', 'x', '203.0.113.8:99999', '[203.0.113.8]:80'].map(
      (hop, i) => ({
        'X-Forwarded-For': `198.51.100.${i}, ${hop}`,
      }),
    );
    for (const headers of junk)
      expect((await postForm(url, validEnquiry, headers)).status).toBe(200);
    expect((await postForm(url, validEnquiry, junk[0])).status).toBe(429);
    // The cap on calls booked ahead holds too: two calls, then the client's cap.
    const { slots } = await freeSlots(server);
    const bookFrom = (i: number, port: number) =>
      postForm(
        `${server.url}/send-mail.php`,
        booking(slots[i]!.start, { email: `person${i}@example.com` }),
        { 'X-Forwarded-For': `198.51.100.9:${port}` },
      );
    expect((await bookFrom(0, 40_001)).status).toBe(200);
    expect((await bookFrom(1, 40_002)).status).toBe(200);
    const refused = await bookFrom(2, 40_003);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: Record<string, string> }).errors).toEqual({
      slot: expect.stringMatching(
        /^There are 2 calls booked with us already from your connection\./,
      ),
    });
  });

  it('an untrusted client cannot claim HTTPS for HSTS either', async () => {
    const server = await start({});
    const response = await fetch(`${server.url}/`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('the captcha', () => {
  it('is verified against the configured URL when a secret is set', async () => {
    const verifyPort = await freePort();
    const seen: URLSearchParams[] = [];
    const stub = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const params = new URLSearchParams(body);
        seen.push(params);
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ success: params.get('response') === 'good-token' }));
      });
    });
    stubs.push(stub);
    await new Promise<void>((resolve) => stub.listen(verifyPort, '127.0.0.1', resolve));
    const server = await start({
      RECAPTCHA_SECRET: 'test-secret',
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${verifyPort}/verify`,
    });
    const url = `${server.url}/php/email.php`;

    const missing = await postForm(url, validEnquiry);
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({
      errors: { captcha: 'Confirm that you are not a robot' },
    });
    const wrong = await postForm(url, { ...validEnquiry, 'g-recaptcha-response': 'bad-token' });
    expect(wrong.status).toBe(422);
    const right = await postForm(url, { ...validEnquiry, 'g-recaptcha-response': 'good-token' });
    expect(right.status).toBe(200);
    expect(seen.at(-1)?.get('secret')).toBe('test-secret');
    expect(seen.at(-1)?.get('remoteip')).toBe('127.0.0.1');
  });

  it('fails closed when the verify service is unreachable', async () => {
    const server = await start({
      RECAPTCHA_SECRET: 'test-secret',
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${await freePort()}/verify`,
    });
    const response = await postForm(`${server.url}/php/email.php`, {
      ...validEnquiry,
      'g-recaptcha-response': 'x',
    });
    expect(response.status).toBe(422);
  });
});
