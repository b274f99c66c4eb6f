/**
 * The staff desk against the built server: signed out it shows nothing of a prospect; a sign-in
 * link goes to staff only (through a real SMTP server on loopback), signs in once, and not once
 * expired; a flood of requests for a member's address from many networks sends at most one e-mail
 * per link's life and 4 an hour, and the member's link still signs in; the desk lists the calls
 * and enquiries, isolated (no bidi control reorders a line), and marks one handled, in the audit
 * log and the server's log; the CSV is a post of the desk's own page, never a GET; another site's
 * posts are refused; sign-out and an idle session end it.
 */
import { existsSync, readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { formatCallTime } from '../../src/domain/call-times';
import { deskTime } from '../../src/domain/staff';
import { linkToken, storedHash } from '../../src/server/staff/access';
import { SqliteStore } from '../../src/server/store/sqlite';
import { freePort, postForm, validEnquiry } from '../support/server';
import { calendarOf, decoded, textOf } from '../support/mime';
import { book, freeSlots, oneHostSlot, onWeekday } from './calls';
import { stoppedAfterEach } from './stopped-after-each';
import { mailsTo, post, read, signIn, signInBy, type Mails } from './staff-sign-in';

/**
 * The server's SQLite file, opened beside it for a test's own statements, which wait up to a minute
 * for the server's write lock: the store's connection waits only in its own methods (whenFree), and
 * a statement run on its file directly failed at once, "database is locked", as the server wrote
 * under load (a fresh `npm test` on a slower machine, 2026-11-30).
 */
function besideServer(database: string) {
  const store = new SqliteStore(database);
  store.db.exec('PRAGMA busy_timeout = 60000');
  return store;
}

/** A page as a browser reads it. */
const parse = (html: string) => new JSDOM(html).window.document;

/** The one event of an e-mail's calendar part, as a calendar program reads it. */
function eventIn(raw: string) {
  const events = new ICAL.Component(ICAL.parse(calendarOf(raw)!)).getAllSubcomponents('vevent');
  expect(events).toHaveLength(1);
  return events[0]!;
}

const STAFF_SECRET = 'staff-test-secret-0123456789abcdef0123';
const servers = stoppedAfterEach({
  BOOKING_SECRET: 'test-secret-0123456789abcdef0123456789',
  STAFF_SECRET,
  STAFF_EMAILS: 'office@northgate-digital.example',
});

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
    await expect.poll(() => mailsTo(mails, 'anna@northgate-digital.example').length).toBe(1);
    // Asked again while it works: the same page, and the link sent is the one to use.
    expect(await said('anna@northgate-digital.example')).toEqual(await said('who@example.com'));
    const { cookie, token } = await signInBy(
      server,
      mailsTo(mails, 'anna@northgate-digital.example')[0]!,
    );
    expect(mails.some((m) => m.to.includes('who@example.com'))).toBe(false);
    expect(mailsTo(mails, 'anna@northgate-digital.example')).toHaveLength(1);
    // Used once: again, it signs no one in.
    const again = await post(`${server.url}/staff/sign-in`, { token });
    expect(again.status).toBe(410);
    // Its own reason phrase, not Astro's "OK" of a page that sets its status.
    expect(again.statusText).toBe('Gone');
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
    const csv = await post(`${server.url}/staff/enquiries.csv`, {}, { Cookie: cookie });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toContain('Zelda Prospect');
    const signedOut = await post(`${server.url}/staff/enquiries.csv`, {});
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
      await fetch(`${server.url}/staff?state=handled`, { headers: { Cookie: cookie } })
    ).text();
    expect(read(after)).toContain('Handled by Anna Reid');
    expect(read(after)).toContain(`marked handled ${id.slice(0, 8)}`);
    expect(read(after)).toContain('exported the enquiries');
    // The server's log: each sign-in and action, by the member's host id, never the prospect.
    const logged = server.output();
    expect(logged).toContain('Staff anna signed in with a link');
    // By its reference, never its whole id.
    expect(logged).toContain(`Staff anna marked handled ${id.slice(0, 8)}`);
    expect(logged).not.toContain(id);
    expect(logged).toContain('Staff anna exported the enquiries');
    expect(logged).not.toContain('Zelda');
  });

  it('moves a call from the desk with the phone picker, then cancels it only once confirmed: each time back at the item, said there; the records name the prospect and the member', async () => {
    const { server, mails } = await servers.startWithMail();
    // Anna has a call at the first time Ben works too (she comes first); then Zelda books a
    // Wednesday time, when only Anna works: the call is Anna's. Moved to the first, Ben takes it.
    const { slots } = await freeSlots(server);
    const busy = slots.find((s) => !onWeekday([s], 'Wednesday').length)!;
    expect((await book(server, busy.start, { name: 'Other Prospect' })).status).toBe(200);
    const slot = oneHostSlot(slots);
    const booked = await book(server, slot.start, {
      name: 'Zelda Prospect',
      email: 'zelda@example.com',
      message: 'Budget: £40k; start, in March.',
    });
    const { id } = (await booked.json()) as { id: string };
    await expect.poll(() => mails.filter((m) => m.to.includes('zelda@example.com')).length).toBe(1);
    const oldLink = /http:\/\/\S+\/schedule\/change\?token=[\w.-]+/.exec(
      decoded(mails.find((m) => m.to.includes('zelda@example.com'))!.raw),
    )![0];
    const { cookie } = await signIn(server, mails, 'anna@northgate-digital.example');
    const as = { Cookie: cookie };
    const page = async (path: string) =>
      parse(await (await fetch(`${server.url}${path}`, { headers: as })).text());
    // The card's Move or cancel posts its form (a note typed goes with it), landing at the times.
    const card = (await page('/staff')).querySelector(`#enquiry-${id}`)!;
    const change = card.querySelector('button[value="change"]')!;
    expect(change.textContent?.trim()).toBe('Move or cancel');
    const opened = await post(`${server.url}/staff?state=upcoming`, { id, action: 'change' }, as);
    expect(opened.headers.get('location')).toBe(`/staff?state=upcoming&call=${id}#change-title`);

    // The picker: a group a day, large time buttons each saying who would take it; a reason field.
    const chosen = await page(`/staff?call=${id}`);
    const picker = chosen.querySelector('section[aria-labelledby="change-title"]')!;
    const days = picker.querySelectorAll('fieldset.time-choice__day');
    expect(days.length).toBeGreaterThan(0);
    expect(days.length).toBeLessThanOrEqual(5);
    const times = [...picker.querySelectorAll('label.time-choice__time')];
    const hosts = new Set(times.map((t) => t.querySelector('small')?.textContent?.trim()));
    expect([...hosts].every((h) => h === 'with Anna Reid' || h === 'with Ben Okafor')).toBe(true);
    expect(hosts.size).toBe(2);
    // Later days is a button of the move's form, carrying its reason (desk-lists.test.ts).
    expect(picker.querySelector('form button[name="day"]')?.textContent?.trim()).toBe('Later days');
    expect(picker.querySelector('.field input[name="reason"]')).not.toBeNull();
    // Move and cancel are apart: no cancel button in the move's form, only a link to ask first.
    expect(picker.querySelector('form button[value="cancel"]')).toBeNull();
    // Its list kept: the calendar's link opens the desk at its first list, Calls ahead.
    const ask = picker.querySelector(
      `a[href="/staff?state=upcoming&call=${id}&step=cancel#cancel-title"]`,
    );
    expect(ask).not.toBeNull();
    // A time Ben would take: the move hands the call to him.
    const toBen = times.find(
      (t) => t.querySelector('small')?.textContent?.trim() === 'with Ben Okafor',
    )!;
    const to = toBen.querySelector('input')!.getAttribute('value')!;
    // The call as the page showed it: a colleague's page, opened at the same time, has the same.
    const sequence = picker.querySelector('input[name="sequence"]')!.getAttribute('value')!;
    const another = times
      .map((t) => t.querySelector('input')!.getAttribute('value')!)
      .find((start) => start !== to)!;

    const moved = await post(
      `${server.url}/staff`,
      { id, action: 'move', slot: to, reason: 'Anna is away', sequence },
      as,
    );
    expect(moved.headers.get('location')).toBe(`/staff?done=moved&at=enquiry-${id}#enquiry-${id}`);
    const landed = await page(moved.headers.get('location')!);
    const item = landed.querySelector(`li#enquiry-${id}`)!;
    expect(item.getAttribute('tabindex')).toBe('-1');
    expect(item.querySelector('[role="status"]')?.textContent?.trim()).toContain(
      'The call is moved',
    );
    expect(item.textContent!.replace(/\s+/g, ' ')).toContain('host Ben Okafor');
    // The colleague's move from their page, now out of date: refused, and shown the call as it is.
    const stale = await post(
      `${server.url}/staff`,
      { id, action: 'move', slot: another, sequence },
      as,
    );
    expect(stale.headers.get('location')).toBe(
      `/staff?call=${id}&done=used&at=change-title#change-title`,
    );
    const outOfDate = (await page(stale.headers.get('location')!)).querySelector(
      'section[aria-labelledby="change-title"]',
    )!;
    expect(outOfDate.querySelector('[role="status"]')?.textContent).toContain(
      'That call has been moved since this was shown',
    );
    expect(outOfDate.textContent!.replace(/\s+/g, ' ')).toContain('host Ben Okafor');
    expect(Number(outOfDate.querySelector('input[name="sequence"]')!.getAttribute('value'))).toBe(
      Number(sequence) + 1,
    );
    // A post without the page's sequence (a page from before it was sent) is out of date too.
    const unsequenced = await post(
      `${server.url}/staff`,
      { id, action: 'move', slot: another },
      as,
    );
    expect(unsequenced.headers.get('location')).toContain('done=used');
    // The host's e-mails name the colleague; Ben's event names the prospect and holds the message.
    const toBen_ = () => mails.filter((m) => m.to.includes('ben@northgate-digital.example'));
    await expect.poll(() => toBen_().length).toBe(1);
    expect(decoded(toBen_()[0]!.raw)).toContain('Moved by: Anna Reid');
    const event = eventIn(toBen_()[0]!.raw);
    expect(event.getFirstPropertyValue('summary')).toBe('Call with Zelda Prospect');
    expect(String(event.getFirstPropertyValue('description'))).toMatch(
      /^Budget: £40k; start, in March\.\n\n[^]*Move or cancel the call on the desk: http:\/\/\S+\/staff\?call=/,
    );
    // Anna, who had it, is told it went (her invitations of both calls came before).
    const awayFromAnna = () =>
      mails.filter(
        (m) =>
          m.to.includes('anna@northgate-digital.example') &&
          calendarOf(m.raw)?.includes('METHOD:CANCEL'),
      );
    await expect.poll(() => awayFromAnna().length).toBe(1);
    expect(decoded(awayFromAnna()[0]!.raw)).toContain('Anna Reid moved the call of Zelda Prospect');

    // The prospect's old link: the agency moved it, here is the time and how to reach us.
    const old = await fetch(oldLink);
    expect(old.status).toBe(410);
    const oldPage = parse(await old.text());
    expect(oldPage.querySelector('h1')?.textContent?.trim()).toBe('We have moved your call');
    expect(oldPage.querySelector('main')!.textContent!.replace(/\s+/g, ' ')).toContain(
      'Our latest e-mail has the new time',
    );
    expect(oldPage.querySelector('main a[href="/contact"]')).not.toBeNull();

    // The old form's cancel (one post): nothing is cancelled, the step that asks is next.
    const unasked = await post(`${server.url}/staff`, { id, action: 'cancel' }, as);
    expect(unasked.headers.get('location')).toBe(`/staff?call=${id}&step=cancel#cancel-title`);
    const step = await page(unasked.headers.get('location')!);
    const asking = step.querySelector('section[aria-labelledby="cancel-title"]')!;
    expect(asking.querySelector('h2')?.textContent?.trim()).toContain(
      'Cancel Zelda Prospect’s call?',
    );
    expect(asking.querySelector('input[name="reason"]')).not.toBeNull();
    expect(asking.querySelector('button[value="cancel-confirmed"]')?.textContent?.trim()).toContain(
      'Yes, cancel the call',
    );
    expect(step.querySelector(`li#enquiry-${id}`)).not.toBeNull();
    const cancels = () => mails.filter((m) => calendarOf(m.raw)?.includes('METHOD:CANCEL'));
    // Ben's cancel of Anna's time went with the move; no other yet.
    expect(cancels().filter((m) => m.to.includes('zelda@example.com'))).toHaveLength(0);

    // The call as the step shows it: a move since would refuse the cancel (a test of its own).
    const shown = asking.querySelector('input[name="sequence"]')!.getAttribute('value')!;
    expect(Number(shown)).toBe(Number(sequence) + 1);
    const cancelled = await post(
      `${server.url}/staff`,
      {
        id,
        sequence: shown,
        action: 'cancel-confirmed',
        reason: 'Budget gone;\r\nBcc: x@evil.example',
      },
      as,
    );
    expect(cancelled.headers.get('location')).toBe(
      `/staff?done=cancelled&at=enquiry-${id}#enquiry-${id}`,
    );
    const after = await page(cancelled.headers.get('location')!);
    // Gone from the calls ahead: said at the top, the line itself the item's anchor.
    expect(after.querySelector(`li#enquiry-${id}`)).toBeNull();
    expect(after.querySelector(`#enquiry-${id}[role="status"]`)?.textContent?.trim()).toContain(
      'The call is cancelled',
    );
    const zeldaCancel = () => cancels().filter((m) => m.to.includes('zelda@example.com'));
    await expect.poll(() => zeldaCancel().length).toBe(1);
    expect(eventIn(zeldaCancel()[0]!.raw).getFirstPropertyValue('comment')).toBe(
      'Budget gone; Bcc: x@evil.example',
    );
    // The audit log: the member, the action, the prospect, the times, the reason.
    // The call by its reference, as on its card: never its whole id, a key to its links.
    const ref = id.slice(0, 8);
    const audit = after.querySelector('.staff-audit')!.textContent!.replace(/\s+/g, ' ');
    expect(audit).toMatch(
      new RegExp(
        `Anna Reid \\(anna@northgate-digital\\.example\\) moved the call ${ref} \\(Zelda Prospect, from \\w+, .+ to \\w+, .+; reason: Anna is away\\)`,
      ),
    );
    expect(audit).toContain(`cancelled the call ${ref} (Zelda Prospect, `);
    expect(audit).not.toContain(id);
    expect(audit).toContain('; reason: Budget gone; Bcc: x@evil.example)');
    expect(server.output()).toContain(`Staff anna moved the call ${id.slice(0, 8)}`);
    // The audit's words name the prospect: the server's log does not.
    expect(server.output()).not.toMatch(/Zelda|Budget gone|Anna is away/);

    // Cancelled again (a second tab's button): refused, said at the top, nothing sent.
    const again = await post(`${server.url}/staff`, { id, action: 'cancel-confirmed' }, as);
    expect(again.headers.get('location')).toBe('/staff?done=already-cancelled#done');
    const refused = await page(again.headers.get('location')!);
    expect(refused.querySelector('#done[role="status"]')?.textContent?.trim()).toContain(
      'That call was cancelled already.',
    );
    // Marked handled: back at the enquiry, said there, its name in the audit log.
    const handled = await post(`${server.url}/staff`, { id, action: 'handled' }, as);
    expect(handled.headers.get('location')).toBe(
      `/staff?done=handled&at=enquiry-${id}#enquiry-${id}`,
    );
    // The call is no longer ahead: said at the top, the line itself the item's anchor.
    const marked = await page(handled.headers.get('location')!);
    expect(marked.querySelector(`#enquiry-${id}[role="status"]`)?.textContent?.trim()).toBe(
      'Marked handled.',
    );
    expect(marked.querySelector('.staff-audit')!.textContent!.replace(/\s+/g, ' ')).toContain(
      `marked handled ${id.slice(0, 8)} (Zelda Prospect)`,
    );
    // A `done` that is no outcome says nothing.
    expect((await page('/staff?done=__proto__')).querySelector('.staff-done')).toBeNull();
    // The calendar event's link to the desk, for a call cancelled since or for no call at all:
    // said at the top, not a bare list.
    for (const [ask, said] of [
      [id, 'That call was cancelled already.'],
      ['zzz', 'No booked call has that reference.'],
    ]) {
      const asked = await page(`/staff?call=${ask}`);
      expect(asked.querySelector('.staff-done')?.textContent?.trim()).toBe(said);
      expect(asked.querySelector('section[aria-labelledby="change-title"]')).toBeNull();
    }
    expect(zeldaCancel()).toHaveLength(1);
  });

  it('marks field data from fewer than 5 visits “too few visits”, not rated', async () => {
    const { server, mails } = await servers.startWithMail({ VITALS_FLUSH_MS: '20' });
    const visit = (path: string) =>
      fetch(`${server.url}/vitals`, {
        method: 'POST',
        body: JSON.stringify({
          path,
          navigation: 'navigate',
          connection: '4g',
          device: 'phone',
          metrics: [{ name: 'LCP', value: 800 }],
        }),
        headers: { Origin: server.url, 'Content-Type': 'text/plain;charset=UTF-8' },
      });
    for (let i = 0; i < 2; i++) expect((await visit('/iphone')).status).toBe(204);
    for (let i = 0; i < 5; i++) expect((await visit('/')).status).toBe(204);
    // Written (the recorder writes in batches) before the desk is first read: its figures are
    // then worked out for a minute.
    const beside = besideServer(server.database);
    await expect.poll(async () => (await beside.vitalsSince('2000-01-01')).length).toBe(7);
    await beside.close();
    const { cookie } = await signIn(server, mails, 'anna@northgate-digital.example');
    const rating = async (path: string) => {
      const desk = parse(
        await (
          await fetch(`${server.url}/staff?state=new`, { headers: { Cookie: cookie } })
        ).text(),
      );
      const row = [...desk.querySelectorAll('section[aria-labelledby="vitals-title"] tr')].find(
        (tr) => tr.querySelector('td')?.textContent === path,
      );
      return row?.querySelectorAll('td')[3]?.textContent;
    };
    expect([await rating('/'), await rating('/iphone')]).toEqual(['good', 'too few visits']);
  });

  it('counts each member’s posts apart, from the forms’ rate limit and from the signed out’s; signing out always works', async () => {
    const { server, mails } = await servers.startWithMail({
      RATE_LIMIT: 'on',
      RATE_LIMIT_MAX: '3',
      STAFF_RATE_LIMIT_MAX: '10',
    });
    const form = async () =>
      (
        await postForm(`${server.url}/php/email.php`, {
          ...validEnquiry,
          idempotency_key: crypto.randomUUID(),
        })
      ).status;
    expect(await form()).toBe(200);
    const { cookie } = await signIn(server, mails, 'office@northgate-digital.example');
    const enquiry = /id="note-([\w-]+)"/.exec(
      await (await fetch(`${server.url}/staff?state=new`, { headers: { Cookie: cookie } })).text(),
    )![1]!;
    // A colleague in the same office (the same network), signed in on two computers.
    const colleague = await signIn(server, mails, 'anna@northgate-digital.example');
    const colleagueElsewhere = await signIn(server, mails, 'anna@northgate-digital.example');
    // A stranger on the office's network asks for sign-in links until refused...
    const strangers = [];
    for (let i = 0; i < 10; i++)
      strangers.push(
        (await post(`${server.url}/staff/sign-in`, { email: `x${i}@elsewhere.example` })).status,
      );
    expect(strangers.at(-1)).toBe(429);
    // ...and the members' morning of actions goes on, up to the desk's own limit.
    const desk = async (i: number, session = cookie) =>
      (
        await post(
          `${server.url}/staff`,
          { id: `none-${i}`, action: 'handled' },
          { Cookie: session },
        )
      ).status;
    for (let i = 0; i < 10; i++) expect(await desk(i)).toBe(303);
    expect(await desk(10)).toBe(429);
    // Past it, a member's note is not lost: the desk says why nothing was done, the note still
    // in its box to send again.
    const noted = await post(
      `${server.url}/staff?state=new`,
      { id: enquiry, action: 'note', note: 'Call back <Tuesday> & ask' },
      { Cookie: cookie },
    );
    expect(noted.status).toBe(429);
    expect(noted.headers.get('retry-after')).toMatch(/^\d+$/);
    const page = new JSDOM(await noted.text()).window.document;
    expect(page.querySelector('#done[role="status"]')?.textContent?.trim()).toBe(
      'Not done: you have made many changes in a short time. Try again in 10 minutes. Your note is still in its box below.',
    );
    expect(page.querySelector<HTMLTextAreaElement>(`#note-${enquiry}`)?.value).toBe(
      'Call back <Tuesday> & ask',
    );
    // So is one typed before another of the card's buttons was pressed (each sends the box).
    const handled = await post(
      `${server.url}/staff?state=new`,
      { id: enquiry, action: 'handled', note: 'Quote sent' },
      { Cookie: cookie },
    );
    expect(handled.status).toBe(429);
    const kept = new JSDOM(await handled.text()).window.document;
    expect(kept.querySelector<HTMLTextAreaElement>(`#note-${enquiry}`)?.value).toBe('Quote sent');
    // The colleague's own ten go on, whichever of their sessions sends them; a cookie of no live
    // session counts against the network's, which the first member's did not use.
    for (let i = 0; i < 5; i++) expect(await desk(i, colleague.cookie)).toBe(303);
    for (let i = 5; i < 10; i++) expect(await desk(i, colleagueElsewhere.cookie)).toBe(303);
    expect(await desk(10, colleague.cookie)).toBe(429);
    expect(await desk(0, 'staff=forged')).toBe(303);
    // Past it, a member on a shared computer still signs out.
    const out = await post(`${server.url}/staff/sign-out`, {}, { Cookie: cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/^staff=;/);
    // The forms keep their own few.
    expect([await form(), await form(), await form()]).toEqual([200, 200, 429]);
  });

  /** A desk allowing two posts a member, a call booked, Anna signed in: the server, the call, her cookie. */
  async function rateLimitedDesk() {
    const { server, mails } = await servers.startWithMail({
      RATE_LIMIT: 'on',
      // Signing in takes two posts, counted apart from the desk's.
      STAFF_RATE_LIMIT_MAX: '2',
    });
    const { slots } = await freeSlots(server);
    const booked = await book(server, slots[0]!.start, { name: 'Zelda Prospect' });
    const { id } = (await booked.json()) as { id: string };
    const { cookie } = await signIn(server, mails, 'anna@northgate-digital.example');
    return { server, id, as: { Cookie: cookie } };
  }

  it('keeps a move refused by the desk’s rate limit on its form: the time chosen, the reason typed, why and when to try again', async () => {
    const { server, id, as } = await rateLimitedDesk();
    const form = parse(
      await (await fetch(`${server.url}/staff?state=upcoming&call=${id}`, { headers: as })).text(),
    ).querySelector('section[aria-labelledby="change-title"] form')!;
    const sequence = form.querySelector<HTMLInputElement>('input[name="sequence"]')!.value;
    // A time on a later day than the first listed, as one chosen after Later days would be.
    const radios = [...form.querySelectorAll<HTMLInputElement>('input[name="slot"]')];
    const chosen = radios.at(-1)!.value;
    // The member's posts of the window, then the move.
    for (const n of [1, 2])
      expect(
        (await post(`${server.url}/staff`, { id: `none-${n}`, action: 'handled' }, as)).status,
      ).toBe(303);
    const moved = await post(
      `${server.url}/staff?state=upcoming`,
      { id, sequence, slot: chosen, reason: 'Anna is away <that> week.', action: 'move' },
      as,
    );
    expect(moved.status).toBe(429);
    const page = parse(await moved.text());
    expect(page.querySelector('#done[role="status"]')?.textContent?.trim()).toMatch(
      /^Not done: you have made many changes in a short time\. Try again in \d+ minutes?\.$/,
    );
    // Focused as the page opens (no anchor on a post's page): read first, the form next.
    expect(page.querySelector('#done')?.hasAttribute('autofocus')).toBe(true);
    const again = page.querySelector('section[aria-labelledby="change-title"] form')!;
    expect(again.querySelector<HTMLInputElement>('input[name="slot"]:checked')?.value).toBe(chosen);
    expect(again.querySelector<HTMLInputElement>('#move-reason')?.value).toBe(
      'Anna is away <that> week.',
    );
    expect(again.querySelector<HTMLInputElement>('input[name="sequence"]')?.value).toBe(sequence);
    expect(again.querySelector<HTMLInputElement>('input[name="id"]')?.value).toBe(id);
    // Later days refused the same way: the form again, from that day, the reason still typed.
    const later = form.querySelector<HTMLButtonElement>('button[name="day"]')!.value;
    const paged = parse(
      await (
        await post(
          `${server.url}/staff?state=upcoming`,
          { id, sequence, reason: 'Anna is away.', day: later },
          as,
        )
      ).text(),
    );
    expect(paged.querySelector<HTMLInputElement>('#move-reason')?.value).toBe('Anna is away.');
    expect(paged.querySelector('#done')?.textContent).toContain('Try again in');
  });

  it('keeps a cancel refused by the desk’s rate limit on its step: the reason typed, why and when to try again', async () => {
    const { server, id, as } = await rateLimitedDesk();
    const asking = `${server.url}/staff?state=upcoming&call=${id}&step=cancel`;
    const form = parse(await (await fetch(asking, { headers: as })).text()).querySelector(
      'section[aria-labelledby="cancel-title"] form',
    )!;
    const here = form.getAttribute('action')!;
    expect(here).toBe('/staff?state=upcoming');
    // The member's posts of the window, then Yes, cancel the call.
    for (const n of [1, 2])
      expect(
        (await post(`${server.url}/staff`, { id: `none-${n}`, action: 'handled' }, as)).status,
      ).toBe(303);
    const reason = 'The host is ill <today>; sorry.';
    const sequence = form.querySelector('input[name="sequence"]')!.getAttribute('value')!;
    const refused = await post(
      `${server.url}${here}`,
      { id, sequence, reason, action: 'cancel-confirmed' },
      as,
    );
    expect(refused.status).toBe(429);
    const page = parse(await refused.text());
    const done = page.querySelector('#done[role="status"]')!;
    expect(done.textContent?.trim()).toMatch(
      /^Not done: you have made many changes in a short time\. Try again in \d+ minutes?\.$/,
    );
    // Focused as the page opens (no anchor on a post's page): read first, the step next.
    expect(done.hasAttribute('autofocus')).toBe(true);
    const step = page.querySelector('section[aria-labelledby="cancel-title"]')!;
    expect(done.compareDocumentPosition(step) & page.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(step.querySelector('h2')?.textContent?.trim()).toBe('Cancel Zelda Prospect’s call?');
    const again = step.querySelector('form')!;
    expect(again.getAttribute('action')).toBe(here);
    expect(again.querySelector<HTMLInputElement>('#cancel-reason')?.value).toBe(reason);
    expect(again.querySelector<HTMLInputElement>('input[name="id"]')?.value).toBe(id);
    expect(again.querySelector<HTMLInputElement>('input[name="sequence"]')?.value).toBe(sequence);
    expect(again.querySelector('button[value="cancel-confirmed"]')).not.toBeNull();
    // Nothing was cancelled: still in the list the member was on.
    expect(page.querySelector(`li#enquiry-${id}`)).not.toBeNull();
    // Kept from the post alone: no address fills in words to the prospect.
    const linked = parse(
      await (await fetch(`${asking}&reason=Spoofed`, { headers: as })).text(),
    ).querySelector<HTMLInputElement>('#cancel-reason');
    expect(linked?.value).toBe('');
  });

  it('cancels nothing once the call has moved since the cancel’s step showed it: says so and when it is now, the focus there, and asks again with the reason typed', async () => {
    const { server, mails } = await servers.startWithMail();
    // Wednesdays only Anna works: the call keeps its host, and the prospect's move is to her too.
    const { slots } = await freeSlots(server);
    const [from, to] = [oneHostSlot(slots), oneHostSlot(slots, 4)];
    const booked = await book(server, from.start, {
      name: 'Zelda Prospect',
      email: 'zelda@example.com',
    });
    const { id } = (await booked.json()) as { id: string };
    const toZelda = () => mails.filter((m) => m.to.includes('zelda@example.com'));
    await expect.poll(() => toZelda().length).toBe(1);
    const changeLink = /http:\/\/\S+\/schedule\/change\?token=([\w.-]+)/.exec(
      decoded(toZelda()[0]!.raw),
    )!;
    const { cookie } = await signIn(server, mails, 'anna@northgate-digital.example');
    const as = { Cookie: cookie };
    const stepOf = (html: string) =>
      parse(html).querySelector('section[aria-labelledby="cancel-title"]')!;
    // The member opens the cancel's step at the call's first time.
    const asking = stepOf(
      await (
        await fetch(`${server.url}/staff?state=upcoming&call=${id}&step=cancel`, { headers: as })
      ).text(),
    );
    const here = asking.querySelector('form')!.getAttribute('action')!;
    const sequence = asking.querySelector('input[name="sequence"]')!.getAttribute('value')!;
    expect(asking.textContent).toContain(formatCallTime(from.start, 'Europe/London'));

    // Meanwhile the prospect moves it with their change link.
    const movedFrom = Date.now();
    const moved = await fetch(`${server.url}/schedule/change`, {
      method: 'POST',
      body: new URLSearchParams({ token: changeLink[1]!, slot: to.start }),
      headers: { Origin: server.url },
      redirect: 'manual',
    });
    expect(moved.status).toBe(200);

    // Yes, cancel the call, from the step as it was shown: nothing is cancelled.
    const reason = 'The host is ill <today>; sorry.';
    const refused = await post(
      `${server.url}${here}`,
      { id, sequence, reason, action: 'cancel-confirmed' },
      as,
    );
    expect(refused.status).toBe(409);
    const page = parse(await refused.text());
    const done = page.querySelector('#done[role="status"]')!;
    const now = formatCallTime(to.start, 'Europe/London');
    // Who moved it, and when in the member's zone (the minute it was moved in).
    const movedAt = [movedFrom, Date.now()].map((at) => deskTime(at, 'Europe/London'));
    expect(
      movedAt.map(
        (at) =>
          `That call has been moved since this was shown (by its prospect at ${at}), to ${now}: nothing was changed. Choose again from its time now.`,
      ),
    ).toContain(done.textContent?.trim());
    // Focused as the page opens, read first; the step next, for the call as it is now.
    expect(done.hasAttribute('autofocus')).toBe(true);
    const step = page.querySelector('section[aria-labelledby="cancel-title"]')!;
    expect(done.compareDocumentPosition(step) & page.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(step.textContent).toContain(now);
    expect(step.textContent).not.toContain(formatCallTime(from.start, 'Europe/London'));
    const again = step.querySelector('form')!;
    expect(again.getAttribute('action')).toBe(here);
    expect(again.querySelector<HTMLInputElement>('#cancel-reason')?.value).toBe(reason);
    const current = again.querySelector('input[name="sequence"]')!.getAttribute('value')!;
    expect(Number(current)).toBe(Number(sequence) + 1);
    // Still booked at its new time, its time still taken; no cancel recorded.
    expect(page.querySelector(`li#enquiry-${id}`)).not.toBeNull();
    expect((await freeSlots(server)).slots.map((s) => s.start)).not.toContain(to.start);
    expect(read(page.documentElement.innerHTML)).not.toContain('cancelled the call');
    // A post without the step's sequence (a page from before it was sent) is out of date too.
    const unsequenced = await post(
      `${server.url}${here}`,
      { id, reason, action: 'cancel-confirmed' },
      as,
    );
    expect(unsequenced.status).toBe(409);

    // Pressed again from the step as it is now: cancelled, at its new time.
    const cancelled = await post(
      `${server.url}${here}`,
      { id, sequence: current, reason, action: 'cancel-confirmed' },
      as,
    );
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toContain('done=cancelled');
    const cancels = () => toZelda().filter((m) => calendarOf(m.raw)?.includes('METHOD:CANCEL'));
    await expect.poll(() => cancels().length).toBe(1);
    const event = eventIn(cancels()[0]!.raw);
    expect(event.getFirstPropertyValue('comment')).toBe(reason);
    expect((event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).toBe(
      new Date(to.start).toISOString(),
    );
  });

  it('signs a member out on every other device, their colleague and this one still signed in; a passkey of none removes nothing', async () => {
    const { server, mails } = await servers.startWithMail();
    const here = await signIn(server, mails, 'anna@northgate-digital.example');
    const laptop = await signIn(server, mails, 'anna@northgate-digital.example');
    const colleague = await signIn(server, mails, 'office@northgate-digital.example');
    const desk = (cookie: string, path = '/staff') =>
      fetch(new URL(path, server.url), { headers: { Cookie: cookie }, redirect: 'manual' });
    const out = await post(
      `${server.url}/staff`,
      { action: 'sign-out-elsewhere' },
      { Cookie: here.cookie },
    );
    expect(out.status).toBe(303);
    const landed = read(await (await desk(here.cookie, out.headers.get('location')!)).text());
    expect(landed).toContain('You are signed out on every other device and browser');
    expect(landed).toContain(
      '(anna@northgate-digital.example) signed out on every other device (1 session ended)',
    );
    expect((await desk(laptop.cookie)).headers.get('location')).toBe('/staff/sign-in');
    expect((await desk(colleague.cookie)).status).toBe(200);
    // A passkey that is none of this member's (gone, or a colleague's): nothing removed, and said so.
    const removed = await post(
      `${server.url}/staff`,
      { action: 'remove-passkey', passkey: 'someone-elses' },
      { Cookie: here.cookie },
    );
    expect(
      read(await (await desk(here.cookie, removed.headers.get('location')!)).text()),
    ).toContain('That passkey was removed already: nothing changed.');
  });

  it('forgets a member taken off for good: put back later, their old session and passkey sign no one in', async () => {
    const office = 'office@northgate-digital.example';
    const { server, mails } = await servers.startWithMail();
    const { cookie } = await signIn(server, mails, office);
    const beside = besideServer(server.database);
    try {
      await beside.staff.addPasskey(
        {
          id: 'office-key',
          email: office,
          publicKey: 'pQECAyYgASFYIA',
          counter: 0,
          transports: [],
        },
        Date.now(),
      );
      await server.stop();
      // The address taken out of STAFF_EMAILS (a shared one whose person left): the desk, opened,
      // forgets what signed it in.
      // On http, as the first (the cookie is `staff`, not `__Host-staff`).
      const again = async (env: Record<string, string> = {}) => {
        const port = await freePort();
        const site = { PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` };
        return servers.start({ ENQUIRY_DB: server.database, ...site, ...env });
      };
      const without = await again({ STAFF_EMAILS: '' });
      await fetch(`${without.url}/staff`, { headers: { Cookie: cookie }, redirect: 'manual' });
      await expect.poll(() => beside.staff.passkey('office-key')).toBeUndefined();
      await without.stop();
      // Put back: its old session and passkey do not come back with it.
      const back = await again();
      const desk = await fetch(`${back.url}/staff`, {
        headers: { Cookie: cookie },
        redirect: 'manual',
      });
      expect(desk.headers.get('location')).toBe('/staff/sign-in');
      expect(await beside.staff.passkeysOf(office)).toEqual([]);
    } finally {
      await beside.close();
    }
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

    // The CSV: another site's post, one that says nothing of where it is from, and a GET (a link
    // or an image of another site's page) export nothing and write no audit line.
    const csv = `${server.url}/staff/enquiries.csv`;
    expect((await post(csv, {}, evil)).status).toBe(403);
    expect((await post(csv, {}, { Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' })).status).toBe(
      403,
    );
    const unsaid = await postForm(csv, {}, { Accept: 'text/html', Cookie: cookie });
    expect(unsaid.status).toBe(403);
    for (const method of ['GET', 'HEAD']) {
      const answer = await fetch(csv, { method, headers: { Cookie: cookie } });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
    }
    const desk = await (await fetch(`${server.url}/staff`, { headers: { Cookie: cookie } })).text();
    expect(desk).not.toContain('exported');
    expect(server.output()).not.toContain('exported');

    // A link made 20 minutes ago: expired.
    const store = besideServer(server.database);
    try {
      const made = Date.now() - 20 * 60_000;
      store.db
        .prepare(
          `INSERT INTO staff_links (ref, email, seq, id_hash, created_at, expires_at)
           VALUES ('old', 'office@northgate-digital.example', 100, ?, ?, ?)`,
        )
        .run(storedHash('old-link-0001'), made, made + 15 * 60_000);
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

  it('sends a member at most one e-mail per link’s life and 4 an hour, however many ask from however many networks, and their link signs in', async () => {
    const { server, mails } = await servers.startWithMail({
      RATE_LIMIT: 'on',
      TRUSTED_PROXIES: '127.0.0.1',
    });
    const anna = 'anna@northgate-digital.example';
    const store = besideServer(server.database);
    const queued = () =>
      Number(
        (
          store.db.prepare(`SELECT count(*) AS n FROM jobs WHERE kind = 'staff-sign-in'`).get() as {
            n: number;
          }
        ).n,
      );
    /** 120 requests for Anna's address, each from a network of its own, 20 at a time. */
    const flood = async () => {
      for (let batch = 0; batch < 6; batch++)
        await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const n = batch * 20 + i;
            const from = n % 2 ? `198.51.${n}.7` : `2001:db8:${n.toString(16)}::7`;
            const answer = await post(
              `${server.url}/staff/sign-in`,
              { email: anna },
              { 'X-Forwarded-For': from },
            );
            expect(answer.status).toBe(200);
          }),
        );
    };
    /** Time passing for the links: each made, and expiring, `minutes` earlier. */
    const later = (minutes: number) =>
      store.db.exec(
        `UPDATE staff_links SET created_at = created_at - ${minutes * 60_000},
           expires_at = expires_at - ${minutes * 60_000}`,
      );
    const toAnna = () => mailsTo(mails, anna);
    const linkIn = (mail: Mails[number]) =>
      /https?:\/\/\S+\/staff\/sign-in\?token=\S+/.exec(textOf(mail.raw) ?? '')![0];
    try {
      await flood();
      expect(queued()).toBe(1);
      await expect.poll(() => toAnna().length).toBe(1);
      // Some minutes on, the flood goes on: the link sent still works, and no other is sent.
      later(10);
      await flood();
      expect(queued()).toBe(1);
      const first = new URL(linkIn(toAnna()[0]!)).searchParams.get('token')!;
      expect((await post(`${server.url}/staff/sign-in`, { token: first })).status).toBe(303);
      // Used: the next request sends one, then one per 15 minutes, 4 in the hour.
      for (let mail = 2; mail <= 4; mail++) {
        await flood();
        await expect.poll(() => toAnna().length).toBe(mail);
        later(15);
      }
      // 40 minutes after the first: the hour's fourth still works; no fifth is sent.
      await flood();
      expect(queued()).toBe(4);
      const fourth = new URL(linkIn(toAnna()[3]!)).searchParams.get('token')!;
      expect((await fetch(linkIn(toAnna()[3]!))).status).toBe(200);
      expect((await post(`${server.url}/staff/sign-in`, { token: fourth })).status).toBe(303);
      // An hour after the first, a fifth.
      later(10);
      await flood();
      expect(queued()).toBe(5);
      // The store and the queue keep no link's id, only its hash.
      const file = [server.database, `${server.database}-wal`]
        .filter((path) => existsSync(path))
        .map((path) => readFileSync(path, 'latin1'))
        .join('');
      expect(file).toContain(anna);
      for (const mail of toAnna()) {
        const id = new URL(linkIn(mail)).searchParams.get('token')!.split('.')[0]!;
        expect(file).not.toContain(id);
      }
    } finally {
      await store.close();
    }
  });

  it('isolates what a prospect typed on the desk and in the CSV: a right-to-left override reorders nothing', async () => {
    const { server, mails } = await servers.startWithMail();
    const [slot] = (await freeSlots(server)).slots;
    const name = 'Zelda \u202Eevil\u2066 \u05e9\u05dc\u05d5\u05dd';
    expect((await book(server, slot!.start, { name, email: 'zelda@example.com' })).status).toBe(
      200,
    );
    const { cookie } = await signIn(server, mails, 'anna@northgate-digital.example');
    const desk = await (await fetch(`${server.url}/staff`, { headers: { Cookie: cookie } })).text();
    expect(desk).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    const shown = 'Zelda evil \u05e9\u05dc\u05d5\u05dd';
    // The call's card: the name and the address each isolated.
    expect(desk).toMatch(
      new RegExp(
        `<bdi[^>]*>${shown}</bdi>\\s*</strong>\\s*&lt;<bdi[^>]*>zelda@example.com</bdi>&gt;`,
      ),
    );
    const csv = await (
      await post(`${server.url}/staff/enquiries.csv`, {}, { Cookie: cookie })
    ).text();
    expect(csv).toContain(shown);
    expect(csv).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });
});
