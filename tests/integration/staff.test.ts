/**
 * The staff desk against the built server: signed out it shows nothing of a prospect; a sign-in
 * link goes to staff only (through a real SMTP server on loopback), signs in once, and not once
 * expired; the desk lists the calls and enquiries and marks one handled, in the audit log; another
 * site's posts are refused; sign-out and an idle session end it.
 */
import { describe, expect, it } from 'vitest';
import { linkToken } from '../../src/server/staff/access';
import { SqliteStore } from '../../src/server/store/sqlite';
import { postForm, validEnquiry } from '../support/server';
import { calendarOf, textOf } from '../support/mime';
import { book, freeSlots } from './calls';
import { stoppedAfterEach } from './stopped-after-each';

const STAFF_SECRET = 'staff-test-secret-0123456789abcdef0123';
const servers = stoppedAfterEach({
  BOOKING_SECRET: 'test-secret-0123456789abcdef0123456789',
  STAFF_SECRET,
  STAFF_EMAILS: 'office@northgate-digital.example',
});

/** A form post as the desk's own page sends it (no fetch: the answers are pages and redirects). */
const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  postForm(url, fields, { Accept: 'text/html', ...headers });

type Mails = { raw: string; to: string[] }[];
/** The sign-in e-mails `to` got. */
const mailsTo = (mails: Mails, to: string) =>
  mails.filter((m) => m.to.includes(to) && m.raw.includes('@staff-sign-in.invalid>'));

/** Signs `email` in by the link it is sent; the session's cookie, and the link's token. */
async function signIn(server: { url: string }, mails: Mails, email: string) {
  const before = mailsTo(mails, email).length;
  expect((await post(`${server.url}/staff/sign-in`, { email })).status).toBe(200);
  await expect.poll(() => mailsTo(mails, email).length, { timeout: 5000 }).toBe(before + 1);
  const link = /https?:\/\/\S+\/staff\/sign-in\?token=\S+/.exec(
    textOf(mailsTo(mails, email).at(-1)!.raw) ?? '',
  )![0];
  const page = await fetch(link);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Press the button to sign in');
  const token = new URL(link).searchParams.get('token')!;
  const signed = await post(`${server.url}/staff/sign-in`, { token });
  expect(signed.status).toBe(303);
  expect(signed.headers.get('location')).toBe('/staff');
  const cookie = signed.headers.get('set-cookie')!;
  expect(cookie).toMatch(/^staff=[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax$/);
  return { cookie: cookie.split(';')[0]!, token };
}

describe('the staff desk', () => {
  it('shows a signed-out visitor the sign-in page and nothing of a prospect', async () => {
    const { server } = await servers.startWithMail();
    const [slot] = (await freeSlots(server)).slots;
    expect((await book(server, slot!.start, { name: 'Zelda Prospect' })).status).toBe(200);
    const desk = await fetch(`${server.url}/staff`, { redirect: 'manual' });
    expect(desk.status).toBe(303);
    expect(desk.headers.get('location')).toBe('/staff/sign-in');
    const forged = await fetch(`${server.url}/staff`, {
      redirect: 'manual',
      headers: { Cookie: 'staff=not-a-session' },
    });
    expect(forged.status).toBe(303);
    const signIn = await fetch(`${server.url}/staff/sign-in`);
    expect(signIn.headers.get('cache-control')).toBe('no-store');
    expect(signIn.headers.get('x-robots-tag')).toBe('noindex');
    const html = await signIn.text();
    expect(html).toContain('name="email"');
    expect(html).not.toContain('Zelda');
    const sitemap = await fetch(`${server.url}/sitemap-0.xml`);
    if (sitemap.ok) expect(await sitemap.text()).not.toContain('/staff');
  });

  it('mails a link to staff only, which signs in once; the desk lists calls and enquiries', async () => {
    const { server, mails } = await servers.startWithMail();
    const [slot] = (await freeSlots(server)).slots;
    expect((await book(server, slot!.start, { name: 'Zelda Prospect' })).status).toBe(200);
    // An address that is not staff's gets the same page, and no e-mail.
    const said = async (email: string) => {
      const answer = await post(`${server.url}/staff/sign-in`, { email });
      return [answer.status, /<main[^]*<\/main>/.exec(await answer.text())![0]];
    };
    expect(await said('who@example.com')).toEqual(await said('Anna@Northgate-Digital.example '));
    await expect
      .poll(() => mailsTo(mails, 'anna@northgate-digital.example').length, { timeout: 5000 })
      .toBe(1);
    const { cookie, token } = await signIn(server, mails, 'anna@northgate-digital.example');
    expect(mails.some((m) => m.to.includes('who@example.com'))).toBe(false);
    expect(mailsTo(mails, 'anna@northgate-digital.example')).toHaveLength(2);
    // Used once: again, it signs no one in.
    const again = await post(`${server.url}/staff/sign-in`, { token });
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('used already');
    // A forged token.
    expect((await post(`${server.url}/staff/sign-in`, { token: `${token}x` })).status).toBe(400);

    const desk = await fetch(`${server.url}/staff`, { headers: { Cookie: cookie } });
    expect(desk.status).toBe(200);
    expect(desk.headers.get('cache-control')).toBe('no-store');
    const html = await desk.text();
    expect(html).toContain('Zelda Prospect');
    expect(html).toContain('Calls ahead');
    expect(html).toContain('Field data, last 28 days');
    const csv = await fetch(`${server.url}/staff/enquiries.csv`, { headers: { Cookie: cookie } });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toContain('Zelda Prospect');
    const signedOut = await fetch(`${server.url}/staff/enquiries.csv`, { redirect: 'manual' });
    expect(signedOut.status).toBe(303);
    expect(html).toContain('signed in');
    const id = /name="id" value="([^"]+)"/.exec(html)![1]!;
    const handled = await post(
      `${server.url}/staff`,
      { id, action: 'handled' },
      { Cookie: cookie },
    );
    expect(handled.status).toBe(303);
    const after = await (
      await fetch(`${server.url}/staff?enquiries=handled`, { headers: { Cookie: cookie } })
    ).text();
    expect(after).toContain('Handled by anna@northgate-digital.example');
    expect(after).toContain(`marked handled ${id}`);
  });

  it('moves a call from the desk, then cancels it: the prospect’s calendar gets the update, then the cancellation', async () => {
    const { server, mails } = await servers.startWithMail();
    const [slot] = (await freeSlots(server)).slots;
    const booked = await book(server, slot!.start, {
      name: 'Zelda Prospect',
      email: 'zelda@example.com',
    });
    const { location } = (await booked.json()) as { location: string };
    const id = new URL(location, server.url).searchParams.get('ref')!;
    const { cookie } = await signIn(server, mails, 'anna@northgate-digital.example');
    const as = { Cookie: cookie };
    expect(await (await fetch(`${server.url}/staff`, { headers: as })).text()).toContain(
      `/staff?call=${id}`,
    );
    const chosen = await (await fetch(`${server.url}/staff?call=${id}`, { headers: as })).text();
    const to = /name="slot" value="([^"]+)"/.exec(chosen)![1]!;
    const moved = await post(`${server.url}/staff`, { id, action: 'move', slot: to }, as);
    expect(moved.headers.get('location')).toBe('/staff?done=moved');
    const toZelda = (method: string) =>
      mails.filter(
        (m) =>
          m.to.includes('zelda@example.com') && calendarOf(m.raw)?.includes(`METHOD:${method}`),
      );
    await expect.poll(() => toZelda('REQUEST').length, { timeout: 5000 }).toBe(2);
    const update = calendarOf(toZelda('REQUEST')[1]!.raw)!;
    expect(update).toContain('SEQUENCE:1');
    expect(update).toContain(`DTSTART:${to.replace(/[-:]/g, '').replace('.000', '')}`);
    const cancelled = await post(
      `${server.url}/staff`,
      { id, action: 'cancel', reason: 'Anna is ill\r\nBcc: x@evil.example' },
      as,
    );
    expect(cancelled.headers.get('location')).toBe('/staff?done=cancelled');
    await expect.poll(() => toZelda('CANCEL').length, { timeout: 5000 }).toBe(1);
    expect(calendarOf(toZelda('CANCEL')[0]!.raw)).toContain('SEQUENCE:2');
    const desk = await (await fetch(`${server.url}/staff?done=cancelled`, { headers: as })).text();
    expect(desk).toContain('The call is cancelled');
    expect(desk).toContain(`cancelled the call ${id} (Anna is ill Bcc: x@evil.example)`);
    expect(desk).not.toContain(`/staff?call=${id}`);
  });

  it('counts a member’s posts apart from the forms’ rate limit: a morning of actions is not throttled', async () => {
    const { server, mails } = await servers.startWithMail({
      RATE_LIMIT: 'on',
      RATE_LIMIT_MAX: '2',
    });
    const { cookie } = await signIn(server, mails, 'office@northgate-digital.example');
    for (let i = 0; i < 8; i++)
      expect(
        (
          await post(
            `${server.url}/staff`,
            { id: `none-${i}`, action: 'handled' },
            { Cookie: cookie },
          )
        ).status,
      ).toBe(303);
    // The forms keep their own few.
    const form = async () =>
      (
        await postForm(`${server.url}/php/email.php`, {
          ...validEnquiry,
          idempotency_key: crypto.randomUUID(),
        })
      ).status;
    expect([await form(), await form(), await form()]).toEqual([200, 200, 429]);
  });

  it('refuses another site’s posts, an expired link, and a session idle too long or signed out', async () => {
    const { server, mails } = await servers.startWithMail();
    const { cookie } = await signIn(server, mails, 'office@northgate-digital.example');
    const evil = { Origin: 'https://evil.example', Cookie: cookie };
    expect((await post(`${server.url}/staff`, { id: 'x', action: 'handled' }, evil)).status).toBe(
      403,
    );
    expect((await post(`${server.url}/staff/sign-out`, {}, evil)).status).toBe(403);
    expect(
      (
        await post(
          `${server.url}/staff/sign-in`,
          { email: 'office@northgate-digital.example' },
          evil,
        )
      ).status,
    ).toBe(403);

    // A link made 20 minutes ago: expired.
    const store = new SqliteStore(server.database);
    try {
      await store.staff.addLink(
        'old-link-0001',
        'office@northgate-digital.example',
        Date.now() - 20 * 60_000,
        15 * 60_000,
      );
      const expired = await fetch(
        `${server.url}/staff/sign-in?token=${linkToken(STAFF_SECRET, 'old-link-0001')}`,
      );
      expect(expired.status).toBe(410);
      expect(await expired.text()).toContain('expired');
      // Idle past STAFF_SESSION_IDLE_MINUTES (120): its last sight moved back 3 hours.
      store.db.exec('UPDATE staff_sessions SET seen_at = seen_at - 10800000');
    } finally {
      await store.close();
    }
    expect(
      (await fetch(`${server.url}/staff`, { headers: { Cookie: cookie }, redirect: 'manual' }))
        .status,
    ).toBe(303);

    const fresh = await signIn(server, mails, 'office@northgate-digital.example');
    const out = await post(`${server.url}/staff/sign-out`, {}, { Cookie: fresh.cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/^staff=; Max-Age=0/);
    expect(
      (
        await fetch(`${server.url}/staff`, {
          headers: { Cookie: fresh.cookie },
          redirect: 'manual',
        })
      ).status,
    ).toBe(303);
  });
});
