import { describe, expect, it } from 'vitest';
import { clientAddress, isCrossSite, wantsJson } from '../../src/server/requests/client';
import { clientNetwork } from '../../src/server/networks';
import { RateLimiter } from '../../src/server/requests/rate-limit';
import { gatePost } from '../../src/server/requests/post-gate';

const request = (headers: Record<string, string>) =>
  new Request('http://localhost:4321/php/email.php', { method: 'POST', headers });

describe('the client address', () => {
  it('is the socket address unless the socket is a trusted proxy', () => {
    expect(clientAddress('::ffff:10.1.1.1', '1.2.3.4', [])).toBe('10.1.1.1');
    expect(clientAddress('10.0.0.2', '1.2.3.4', ['10.0.0.2'])).toBe('1.2.3.4');
  });

  it('takes the right-most untrusted hop, so a forged header changes nothing', () => {
    // The client sent "X-Forwarded-For: 6.6.6.6"; the proxy appended the real address.
    expect(clientAddress('10.0.0.2', '6.6.6.6, 5.5.5.5', ['10.0.0.2'])).toBe('5.5.5.5');
    expect(clientAddress('10.0.0.2', '5.5.5.5, 10.0.0.3', ['10.0.0.2', '10.0.0.3'])).toBe(
      '5.5.5.5',
    );
  });
});

describe('an X-Forwarded-For entry', () => {
  const proxy = ['10.0.0.2'];
  const from = (header: string) => clientAddress('10.0.0.2', header, proxy);

  it('with a port, or in brackets, is the address alone: a new port is not a new client', () => {
    for (const [hop, client] of [
      ['203.0.113.7:51234', '203.0.113.7'],
      ['203.0.113.7:1', '203.0.113.7'],
      ['[2001:db8::1]:443', '2001:db8::1'],
      ['[2001:db8::1]', '2001:db8::1'],
      ['[::1]:80', '::1'],
      ['[::ffff:203.0.113.7]:8080', '203.0.113.7'],
      [' 203.0.113.7:65535 ', '203.0.113.7'],
    ])
      expect(from(`6.6.6.6, ${hop}`), hop).toBe(client);
  });

  it('is one spelling per address, so that two spellings of one address are one client', () => {
    for (const hop of [
      '2001:DB8::1',
      '2001:0db8:0000:0000:0000:0000:0000:0001',
      '2001:db8:0:0::1',
      '[2001:db8::0:1]:9',
    ])
      expect(from(hop), hop).toBe('2001:db8::1');
    expect(from('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(from('2001:db8:0:1:0:0:0:1')).toBe('2001:db8:0:1::1');
    expect(from('fe80:0:0:0:0:0:0:1%eth0')).toBe('fe80::1');
    for (const hop of ['::ffff:203.0.113.7', '::FFFF:cb00:7107', '[::ffff:cb00:7107]:1'])
      expect(from(hop), hop).toBe('203.0.113.7');
  });

  it('that is not an address makes the client the proxy itself, never the hop to its left', () => {
    for (const hop of [
      'unknown',
      '_hidden',
      '',
      'garbage',
      '203.0.113.7:99999',
      '203.0.113.7:',
      '203.0.113.7:80:80',
      '2001:db8::1:443x',
      '[203.0.113.7]:80',
      '[2001:db8::1]:',
      '[2001:db8::1',
      '203.0.113.7/24',
      '0x7f.1',
      '127.1',
      '01.2.3.4',
      '203.0.113.7\r\nX-Evil: 1',
      '203.0.113.\u0000',
      `[2001:db8::1]:${'0'.repeat(80)}`,
      'a'.repeat(10_000),
    ])
      // To its left is what the client sent itself: it would pick a new name every post.
      expect(from(`6.6.6.6, ${hop}`), JSON.stringify(hop)).toBe('10.0.0.2');
    expect(from('203.0.113.7, unknown, 10.0.0.2')).toBe('10.0.0.2');
  });

  it('trusts a proxy however its address or TRUSTED_PROXIES spells it', () => {
    expect(clientAddress('::ffff:10.0.0.2', '203.0.113.7', ['10.0.0.2'])).toBe('203.0.113.7');
    expect(clientAddress('2001:db8::53', '203.0.113.7', ['2001:DB8:0::53'])).toBe('203.0.113.7');
    expect(clientAddress('10.0.0.2', '203.0.113.7, 10.0.0.3:443', ['10.0.0.2', '10.0.0.3'])).toBe(
      '203.0.113.7',
    );
    // The socket's own address is given in the one spelling too.
    expect(clientAddress('2001:0db8::0001', '203.0.113.7', [])).toBe('2001:db8::1');
  });

  it('keeps the rate limit on one client whatever port each post names', () => {
    const limiter = new RateLimiter(5, 60_000);
    const allowed = [];
    for (let port = 50_000; port < 50_008; port++) {
      const client = clientAddress('10.0.0.2', `203.0.113.7:${port}`, proxy);
      allowed.push(limiter.hit(clientNetwork(client), 1000).allowed);
    }
    expect(allowed).toEqual([true, true, true, true, true, false, false, false]);
  });
});

describe('cross-site posts', () => {
  it('are refused when the browser says cross-site or the Origin is another site', () => {
    const none = { allowedOrigins: [] };
    expect(isCrossSite(request({ 'sec-fetch-site': 'cross-site' }), none)).toBe(true);
    expect(isCrossSite(request({ origin: 'https://evil.example' }), none)).toBe(true);
    expect(isCrossSite(request({ origin: 'null' }), none)).toBe(true);
  });

  it('with SITE_URL, are told by it and never by the Host the request names', () => {
    const site = { siteOrigin: 'https://www.agency.example', allowedOrigins: [] };
    // A rebound DNS name: the request's own URL (from its Host) is the attacker's origin.
    const rebound = new Request('http://evil.example/php/email.php', {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
    });
    expect(isCrossSite(rebound, site)).toBe(true);
    expect(isCrossSite(request({ origin: 'https://www.agency.example' }), site)).toBe(false);
    expect(isCrossSite(request({ origin: 'http://localhost:4321' }), site)).toBe(true);
    expect(
      isCrossSite(request({ origin: 'https://admin.agency.example' }), {
        ...site,
        allowedOrigins: ['https://admin.agency.example'],
      }),
    ).toBe(false);
  });

  it('without SITE_URL, are the site’s only from a loopback origin, the one they arrived at: never by the Host', () => {
    const none = { allowedOrigins: [] };
    // A rebound DNS name: the page and the request both name the attacker's host, now this machine.
    for (const host of ['evil.example', 'evil.example:4321', '192.168.1.20:4321', '[2001:db8::1]'])
      expect(
        isCrossSite(
          new Request(`http://${host}/php/email.php`, {
            method: 'POST',
            headers: { origin: `http://${host}`, 'sec-fetch-site': 'same-origin' },
          }),
          none,
        ),
        host,
      ).toBe(true);
    for (const host of [
      'localhost:4321',
      '127.0.0.1:4321',
      '127.8.9.10',
      '[::1]:4321',
      'a.localhost',
    ])
      expect(
        isCrossSite(
          new Request(`http://${host}/php/email.php`, {
            method: 'POST',
            headers: { origin: `http://${host}` },
          }),
          none,
        ),
        host,
      ).toBe(false);
    // Another loopback port is another site.
    expect(isCrossSite(request({ origin: 'http://localhost:9999' }), none)).toBe(true);
    // ALLOWED_ORIGINS still counts without SITE_URL.
    expect(
      isCrossSite(
        new Request('http://shop.example/php/email.php', {
          method: 'POST',
          headers: { origin: 'https://shop.example' },
        }),
        { allowedOrigins: ['https://shop.example'] },
      ),
    ).toBe(false);
  });

  it('are allowed from the same origin, an allowed origin, or a client that sends neither header', () => {
    expect(
      isCrossSite(request({ origin: 'http://localhost:4321', 'sec-fetch-site': 'same-origin' }), {
        allowedOrigins: [],
      }),
    ).toBe(false);
    expect(
      isCrossSite(request({ origin: 'https://www.agency.example' }), {
        allowedOrigins: ['https://www.agency.example'],
      }),
    ).toBe(false);
    expect(isCrossSite(request({}), { allowedOrigins: [] })).toBe(false);
  });

  it('from an allowed origin reach the forms but never the staff desk', async () => {
    const config = {
      siteUrl: 'https://www.agency.example',
      allowedOrigins: ['https://landing.agency.example'],
      bodyLimit: 32 * 1024,
      trustedProxies: [],
    };
    // A page of the agency's landing site: same-site, so the browser sends a member's cookie.
    const post = (origin: string) =>
      new Request('https://www.agency.example/staff', {
        method: 'POST',
        headers: {
          origin,
          'sec-fetch-site': 'same-site',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'action=note&id=E1&note=hi',
      });
    const gate = (origin: string, sameOriginOnly: boolean) =>
      gatePost(post(origin), '127.0.0.1', { config, limiter: undefined, sameOriginOnly });
    expect(await gate('https://landing.agency.example', false)).toMatchObject({ ok: true });
    expect(await gate('https://landing.agency.example', true)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await gate('https://www.agency.example', true)).toMatchObject({ ok: true });
  });

  it('JSON is for clients that ask for it', () => {
    expect(wantsJson(request({ accept: 'application/json' }))).toBe(true);
    expect(wantsJson(request({ accept: 'text/html,*/*' }))).toBe(false);
  });
});

describe('the rate limit', () => {
  it('allows max hits in any window and says when the next one is allowed', () => {
    const limiter = new RateLimiter(5, 600_000);
    for (let i = 0; i < 5; i++) expect(limiter.hit('a', 1000 + i).allowed).toBe(true);
    expect(limiter.hit('a', 2000)).toEqual({ allowed: false, retryAfter: 599 });
    expect(limiter.hit('b', 2000).allowed).toBe(true);
    // The window slides: the first hit leaves it 10 minutes after it was made, freeing one place.
    expect(limiter.hit('a', 601_000).allowed).toBe(true);
    expect(limiter.hit('a', 601_000).allowed).toBe(false);
  });

  it('takes back a hit it is given back, so that a refused post does not count', () => {
    const limiter = new RateLimiter(2, 600_000);
    expect(limiter.hit('a', 1000).allowed).toBe(true);
    expect(limiter.hit('a', 1001).allowed).toBe(true);
    expect(limiter.hit('a', 1002).allowed).toBe(false);
    limiter.refund('a', 1001);
    expect(limiter.hit('a', 1003).allowed).toBe(true);
    expect(limiter.hit('a', 1004).allowed).toBe(false);
  });

  it('forgets clients beyond its size, oldest first', () => {
    const limiter = new RateLimiter(1, 1000, 100);
    for (let i = 0; i < 1000; i++) limiter.hit(`client-${i}`, i);
    expect(limiter.clients).toBeLessThanOrEqual(100);
  });
});
