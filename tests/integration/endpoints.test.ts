/**
 * The enquiry endpoints of the built server, each answer with the input that
 * earns it; and none of the bad input crashes, stalls or slows the server.
 */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  postForm,
  readStore,
  startServer,
  validEnquiry,
  type RunningServer,
} from '../support/server';

let server: RunningServer;
let enquiry: string;
let call: string;

beforeAll(async () => {
  server = await startServer();
  enquiry = `${server.url}/php/email.php`;
  call = `${server.url}/send-mail.php`;
});
afterAll(() => server.stop());

const stored = () => readStore(server.database);

describe('a valid enquiry', () => {
  it('is stored before the 200 {ok, id} that a fetch gets', async () => {
    const response = await postForm(enquiry, validEnquiry);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { ok: boolean; id: string };
    expect(body.ok).toBe(true);
    const record = (await stored()).find((e) => e.id === body.id);
    expect(record?.data).toMatchObject({
      first_name: 'Grace',
      service: ['Web Development', 'Technical Consultancy'],
    });
  });

  it('is redirected to /thankyou (303) when posted natively, as urlencoded or multipart', async () => {
    const native = await postForm(enquiry, validEnquiry, { Accept: 'text/html' });
    expect(native.status).toBe(303);
    expect(native.headers.get('location')).toBe('/thankyou');
    const data = new FormData();
    for (const [name, value] of Object.entries(validEnquiry)) data.append(name, value);
    data.set('service', 'Web Development');
    data.append('service', 'Other Services');
    const multipart = await fetch(enquiry, { method: 'POST', body: data, redirect: 'manual' });
    expect(multipart.status).toBe(303);
    expect((await stored()).at(-1)!.data.service).toEqual(['Web Development', 'Other Services']);
  });

  it('ignores unknown fields and the captcha field when no captcha secret is set', async () => {
    const response = await postForm(enquiry, {
      ...validEnquiry,
      'g-recaptcha-response': 'anything',
      admin: 'true',
    });
    expect(response.status).toBe(200);
    expect(Object.keys((await stored()).at(-1)!.data)).not.toContain('admin');
  });

  it('a call request from the modal, with name or Fname', async () => {
    for (const field of ['name', 'Fname']) {
      const response = await postForm(call, {
        [field]: 'Ada Lovelace',
        email: 'ada@example.com',
        message: 'Call me',
      });
      expect(response.status).toBe(200);
      expect((await stored()).at(-1)).toMatchObject({ kind: 'call', name: 'Ada Lovelace' });
    }
  });
});

describe('bad input', () => {
  it('422 with the field errors as JSON', async () => {
    const response = await postForm(enquiry, {
      ...validEnquiry,
      email: 'grace@',
      contact: '123',
      service: 'Gardening',
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: object }).errors).toEqual({
      email: 'Enter an email address in the correct format, like name@example.com',
      contact: 'Enter a phone number of 7 to 15 digits, like +44 20 7946 0958',
      service: 'Select services from the list',
    });
    const modal = await postForm(call, { name: '', email: 'x', message: ' ' });
    expect(await modal.json()).toEqual({
      errors: {
        name: 'Name is required.',
        email: 'Valid email is required.',
        message: 'Please,leave us a message.',
      },
    });
  });

  it('422 as an HTML page that lists the errors and links back, for a native post', async () => {
    const response = await postForm(enquiry, { first_name: 'Grace' }, { Accept: 'text/html' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('There is a problem');
    expect(html).toContain('href="#last_name"');
    expect(html).toContain('href="/contact"');
    expect(html).toContain('value="Grace"');
  });

  it('keeps script tags as text: stored verbatim, escaped when shown again', async () => {
    const script = '<script>alert(document.cookie)</script>';
    const ok = await postForm(enquiry, { ...validEnquiry, project: script });
    expect(ok.status).toBe(200);
    expect((await stored()).at(-1)!.data.project).toBe(script);
    const page = await postForm(enquiry, { first_name: script }, { Accept: 'text/html' });
    const html = await page.text();
    expect(html).not.toContain(script);
    expect(html).toContain('&lt;script&gt;alert(document.cookie)&lt;/script&gt;');
  });

  it('413 for a body over 32 KB, however it is sent', async () => {
    const big = await postForm(enquiry, { ...validEnquiry, project: 'x'.repeat(33 * 1024) });
    expect(big.status).toBe(413);
    const tenThousand = await postForm(enquiry, {
      ...validEnquiry,
      service: Array(10_000).fill('Web Development'),
    });
    expect(tenThousand.status).toBe(413);
    // Streamed without a Content-Length: the server stops reading at the limit, answers and closes.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = request(enquiry, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', (error) =>
        (error as NodeJS.ErrnoException).code === 'EPIPE' ? undefined : reject(error),
      );
      let sent = 0;
      const write = () => {
        while (sent < 100 && req.write('a'.repeat(1024))) sent += 1;
        if (sent < 100) req.once('drain', write);
        else req.end();
      };
      write();
    });
    expect(chunked).toBe(413);
  });

  it('keeps the connection of a post refused before its body was read for the next request, once that body has come', async () => {
    // The refusal says keep-alive, so a client sends its next post on the same connection: the
    // close meant for a body that keeps coming must not cut that one off (it did, 1 s after the
    // refusal, whatever came on the connection meanwhile).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    /** Posts `fields` on the agent's one connection, the first bytes now and the rest `when` says. */
    const post = (fields: Record<string, string>, when: 'answered' | number) =>
      new Promise<{ status: number; port: number }>((resolve, reject) => {
        const body = new URLSearchParams(fields).toString();
        const req = request(enquiry, {
          method: 'POST',
          agent,
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            'Content-Length': Buffer.byteLength(body),
            Accept: 'application/json',
          },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          if (when === 'answered') req.end(body.slice(10));
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, port: req.socket!.localPort! }));
        });
        req.write(body.slice(0, 10));
        if (when !== 'answered') setTimeout(() => req.end(body.slice(10)), when);
      });
    try {
      // Over 32 KB by its Content-Length: refused at once; the rest of it follows the answer.
      const refused = await post({ ...validEnquiry, project: 'x'.repeat(33 * 1024) }, 'answered');
      expect(refused.status).toBe(413);
      // The next post comes on that connection, and is still being sent 1.2 s after the refusal.
      const next = await post(validEnquiry, 1200);
      expect(next).toEqual({ status: 200, port: refused.port });
    } finally {
      agent.destroy();
    }
  });

  it('says an idle connection lasts 5 s, and keeps it longer, for a client whose timer runs late', async () => {
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    socket.setEncoding('utf8');
    let received = '';
    socket.on('data', (text: string) => (received += text));
    const answered = async (count: number) =>
      expect
        .poll(() => received.match(/^HTTP\/1\.1 200 /gm)?.length ?? 0, { interval: 50 })
        .toBe(count);
    try {
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await answered(1);
      expect(received).toMatch(/^Keep-Alive: timeout=5$/im);
      // Past the 5 s said (Node's fetch drops it at 3 s, its own agents at 4 s): still open.
      await new Promise((resolve) => setTimeout(resolve, 7_000));
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await answered(2);
    } finally {
      socket.destroy();
    }
  });

  it('accepts up to 32 KB, and repeated service fields', async () => {
    const services = Array(1000).fill('Web Development');
    const response = await postForm(enquiry, { ...validEnquiry, service: services });
    expect(response.status).toBe(200);
  });

  it('415 for another content type', async () => {
    for (const type of ['application/json', 'text/plain', 'application/xml']) {
      const response = await fetch(enquiry, {
        method: 'POST',
        body: JSON.stringify(validEnquiry),
        headers: { 'Content-Type': type, Accept: 'application/json' },
      });
      expect(response.status, type).toBe(415);
    }
  });

  it('400 for malformed urlencoded, invalid UTF-8 and broken multipart', async () => {
    const send = (body: BodyInit, type: string) =>
      fetch(enquiry, {
        method: 'POST',
        body,
        headers: { 'Content-Type': type, Accept: 'application/json' },
      });
    expect(
      (await send('first_name=%E0%A4%A&x=%', 'application/x-www-form-urlencoded')).status,
    ).toBe(400);
    expect(
      (await send(new Uint8Array([0x61, 0x3d, 0xc3, 0x28]), 'application/x-www-form-urlencoded'))
        .status,
    ).toBe(400);
    expect((await send('--nope\r\nbroken', 'multipart/form-data; boundary=b')).status).toBe(400);
  });

  it('405 for another method, saying which is allowed', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const response = await fetch(enquiry, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
    expect((await fetch(call)).status).toBe(405);
  });

  it('403 for a cross-site post, with Vary: Origin, Sec-Fetch-Site', async () => {
    const evil = await postForm(enquiry, validEnquiry, { Origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('vary')).toContain('Origin');
    expect(evil.headers.get('vary')).toContain('Sec-Fetch-Site');
    const crossSite = await postForm(
      call,
      { name: 'a', email: 'a@b.co', message: 'm' },
      { 'Sec-Fetch-Site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    const sameOrigin = await postForm(enquiry, validEnquiry, {
      Origin: server.url,
      'Sec-Fetch-Site': 'same-origin',
    });
    expect(sameOrigin.status).toBe(200);
    expect(sameOrigin.headers.get('vary')).toContain('Origin');
  });

  it('does not crash, stall or slow the server', async () => {
    const barrage = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 3 === 0
          ? postForm(enquiry, { ...validEnquiry, project: 'y'.repeat(40_000) })
          : i % 3 === 1
            ? fetch(enquiry, {
                method: 'POST',
                body: '%%%',
                headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
              })
            : fetch(enquiry, {
                method: 'POST',
                body: '{',
                headers: { 'Content-Type': 'application/json' },
              }),
      ),
    );
    expect(barrage.every((r) => r.status >= 400 && r.status < 500)).toBe(true);
    const started = performance.now();
    const response = await postForm(enquiry, validEnquiry);
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});

describe('the honeypot', () => {
  it('answers as if it worked, stores the post flagged as spam', async () => {
    const response = await postForm(enquiry, {
      ...validEnquiry,
      fax_number: 'http://spam.example',
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { ok: boolean }).ok).toBe(true);
    expect((await stored()).at(-1)).toMatchObject({ spam: true });
  });
});

describe('health and headers', () => {
  it('/healthz is 200 while the store is writable', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      store: { kind: 'sqlite', state: 'writable' },
      jobs: { failed: 0 },
      mail: { undeliverable: 0 },
    });
  });

  it('/healthz is 503 when the store cannot be written', async () => {
    // A store whose folder cannot exist: its parent is a file.
    const broken = await startServer({ ENQUIRY_DB: '/etc/hostname/enquiries.sqlite' });
    try {
      expect((await fetch(`${broken.url}/healthz`)).status).toBe(503);
      const response = await postForm(`${broken.url}/php/email.php`, validEnquiry);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBeTruthy();
    } finally {
      await broken.stop();
    }
  });

  // What the Content-Security-Policy does (no injected script runs, no framing, no foreign form
  // action, base or plug-in) is watched in the browser: tests/e2e/csp.spec.ts.
  it('every response carries the security headers and a Content-Security-Policy', async () => {
    for (const path of [
      '/',
      '/iphone',
      '/contact',
      '/no-such-page',
      '/favicon.svg',
      '/healthz',
      '/robots.txt',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get('content-security-policy'), path).toBeTruthy();
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('permissions-policy'), path).toContain('camera=()');
      expect(response.headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
    }
    const posted = await postForm(enquiry, { first_name: 'x' }, { Accept: 'text/html' });
    expect(posted.headers.get('content-security-policy')).toBeTruthy();
  });

  // Kept from other sites' windows where there is a session, a token or a visitor's answer; not on
  // the prerendered pages, the same for everyone, where it cost a renderer process of their own.
  it('keeps the opener policy for what is rendered on demand, not for the prerendered pages', async () => {
    for (const path of ['/', '/iphone', '/contact'])
      expect(
        (await fetch(`${server.url}${path}`)).headers.get('cross-origin-opener-policy'),
        path,
      ).toBeNull();
    for (const path of ['/schedule', '/schedule/change', '/staff', '/no-such-page', '/healthz']) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(response.headers.get('cross-origin-opener-policy'), path).toBe('same-origin');
    }
    const posted = await postForm(enquiry, { first_name: 'x' }, { Accept: 'text/html' });
    expect(posted.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  });

  it('each page gets the CSP of its own inline scripts, / and the 404 page included', async () => {
    for (const path of ['/', '/about', '/no-such-page']) {
      const response = await fetch(`${server.url}${path}`);
      const csp = response.headers.get('content-security-policy')!;
      const html = await response.text();
      const inline = [
        ...html.matchAll(/<(script)(?![^>]*\bsrc=)(?![^>]*ld\+json)[^>]*>([\s\S]*?)<\/\1>/g),
      ];
      expect(inline.length, path).toBeGreaterThan(0);
      const hashes = new Set<string>();
      for (const [, , content] of inline) {
        const hash = Buffer.from(
          await crypto.subtle.digest('SHA-256', new TextEncoder().encode(content)),
        ).toString('base64');
        expect(csp, `${path}: an inline block has no hash`).toContain(`'sha256-${hash}'`);
        hashes.add(hash);
      }
      // A prerendered page's scripts: its own, and no other (the build joins them: fewer-scripts.ts).
      if (path !== '/no-such-page')
        expect(/script-src[^;]*/.exec(csp)![0].match(/'sha256-/g), path).toHaveLength(hashes.size);
    }
  });
});
