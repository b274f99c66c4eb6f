/**
 * A prospect moves a booked call with the change link of its e-mails, against the built server:
 * the page without JavaScript (radio buttons named `slot`), the move in one transaction, every
 * calendar's event moved rather than doubled (one UID, a rising SEQUENCE, read with ical.js), a link
 * that works once, none to the time the call has, the limits (the notice period, three moves), and
 * two changes racing for a time.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import ICAL from 'ical.js';
import { JSDOM } from 'jsdom';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { dateIn } from '../../src/domain/call-times';
import { signCallToken } from '../../src/server/call-token';
import { Bookings } from '../../src/server/booking/calls';
import { SqliteStore } from '../../src/server/store/sqlite';
import { calendarOf, decoded } from '../support/mime';
import { readStore } from '../support/server';
import { book, freeSlots, listedSlots, onWeekday, type Slot } from './calls';
import { call, plus } from '../support/records';
import { stoppedAfterEach } from './stopped-after-each';
import type { Received } from '../../scripts/smtp';

const SECRET = 'test-secret-0123456789abcdef0123456789';
const servers = stoppedAfterEach({ BOOKING_SECRET: SECRET });

/** The change or cancel link in an e-mail's text, and its token. */
function linkIn(mail: Received, purpose: 'change' | 'cancel') {
  const found = new RegExp(
    `http://127\\.0\\.0\\.1:\\d+/schedule/${purpose}\\?token=([\\w.-]+)`,
  ).exec(decoded(mail.raw));
  expect(found, `a ${purpose} link in ${mail.to.join(', ')}'s e-mail`).not.toBeNull();
  return { url: found![0], token: found![1]! };
}

/** The one event of an e-mail's invitation, as a calendar program reads it. */
function eventOf(mail: Received) {
  const ics = calendarOf(mail.raw)!;
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const events = calendar.getAllSubcomponents('vevent');
  expect(events).toHaveLength(1);
  const event = events[0]!;
  return {
    method: calendar.getFirstPropertyValue('method'),
    uid: event.getFirstPropertyValue('uid'),
    sequence: Number(event.getFirstPropertyValue('sequence')),
    start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
    location: event.getFirstPropertyValue('location'),
  };
}

const subjectOf = (mail: Received) => /^Subject: (.*)$/m.exec(decoded(mail.raw))?.[1] ?? '';
/** The e-mails of the call (its reminders come only a day before, later than any test runs). */
const callMails = (mails: Received[]) =>
  mails.filter((mail) => !subjectOf(mail).startsWith('Reminder'));

const post = (url: string, fields: Record<string, string>) =>
  fetch(`${url}/schedule/change`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { Origin: url },
    redirect: 'manual',
  });

/** Two free Thursday times after the first (Anna and Ben both work Thursdays). */
const thursdays = (slots: Slot[]) => onWeekday(slots, 'Thursday');

describe('the change link', () => {
  it('moves the call: the page lists the times as radio buttons, a post moves it, every calendar gets one event at the new time', async () => {
    const { server, mails } = await servers.startWithMail();
    const { slots } = await freeSlots(server);
    // Wednesday: only Anna works, so the call holds its time alone.
    const [from, to] = [onWeekday(slots, 'Wednesday')[0]!, onWeekday(slots, 'Wednesday')[4]!];
    expect((await book(server, from.start, { time_zone: 'America/New_York' })).status).toBe(200);
    await expect.poll(() => callMails(mails).length).toBe(3);
    const prospect = callMails(mails).find((m) => m.to.includes('ada@example.com'))!;
    const change = linkIn(prospect, 'change');
    linkIn(prospect, 'cancel');
    const booked = eventOf(prospect);
    expect(booked).toMatchObject({
      method: 'REQUEST',
      sequence: 0,
      start: new Date(from.start).toISOString(),
    });

    // Opened (by the prospect or a mail scanner): it changes nothing, and offers the free times.
    const page = await fetch(change.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Choose a new time for your call');
    // E-mail is on: the page's words tell of the e-mails that come (with it off, of none).
    expect(html).toContain('your calendar gets an update');
    expect(html).toContain(`name="token" value="${change.token}"`);
    expect(html).toMatch(/name="slot" value="/);
    // The new time on the page of its day: a week later when tomorrow, a Wednesday, had fewer than
    // five free times left, past the five days the first page lists.
    const day = dateIn(to.start, 'America/New_York');
    const ofItsDay = await (await fetch(`${change.url}&from=${day}`)).text();
    expect(ofItsDay).toContain(`name="slot" value="${to.start}"`);
    // Its own time is not offered, and its time zone is the prospect's.
    expect(html).not.toContain(`name="slot" value="${from.start}"`);
    expect(html).toContain('Eastern Time (New York), your time zone');

    expect((await freeSlots(server)).slots.map((s) => s.start)).not.toContain(from.start);
    const moved = await post(server.url, { token: change.token, slot: to.start });
    expect(moved.status).toBe(200);
    const movedPage = await moved.text();
    expect(movedPage).toContain('Your call is moved');
    expect(movedPage).toContain('e-mailed you an update');
    const movedFrom = /Moved from: [^<]+/.exec(movedPage)?.[0];
    expect(movedFrom).toBeDefined();
    const free = (await freeSlots(server)).slots.map((s) => s.start);
    expect(free).toContain(from.start);
    expect(free).not.toContain(to.start);
    await expect.poll(() => callMails(mails).length).toBeGreaterThanOrEqual(6);
    const updates = callMails(mails).slice(3);
    const to_ = (address: string) => updates.filter((m) => m.to.includes(address));
    // The prospect, the agency and a host: each one update, or the host who had it a cancellation
    // and the one who has it now an invitation.
    expect(to_('ada@example.com')).toHaveLength(1);
    expect(to_('sales@agency.example')).toHaveLength(1);
    for (const mail of updates) {
      const event = eventOf(mail);
      expect(event.uid).toBe(booked.uid);
      expect(event.sequence).toBe(1);
      if (event.method === 'REQUEST') expect(event.start).toBe(new Date(to.start).toISOString());
    }
    const update = to_('ada@example.com')[0]!;
    const text = decoded(update.raw);
    expect(subjectOf(update)).toMatch(/^Moved: your call with Northgate Digital, now /);
    // The prospect moved it with their link: as they asked, in their zone by its name.
    expect(text).toContain('Your call is moved, as you asked:');
    expect(text).toMatch(/From: .* Eastern Time\r?\n/);
    expect(text).toMatch(/To: .* Eastern Time\r?\n/);
    expect(decoded(to_('sales@agency.example')[0]!.raw)).toContain('Moved by: the prospect');
    expect(text).toMatch(/Where: /);

    // The same post again (a double tap): the move it made is its answer, the time it was moved
    // from included; nothing more is sent.
    const repeated = await post(server.url, { token: change.token, slot: to.start });
    expect(repeated.status).toBe(200);
    const repeatedPage = await repeated.text();
    expect(repeatedPage).toContain('Your call is moved');
    expect(repeatedPage).toContain(movedFrom);
    // The old link was used; the new e-mail's links work, and a cancel then is one SEQUENCE higher.
    const again = await post(server.url, { token: change.token, slot: thursdays(slots)[6]!.start });
    expect(again.status).toBe(410);
    const used = await again.text();
    expect(used).toContain('This link has been used');
    expect(used).toContain('Our latest e-mail about it has the current time');
    // The new link, posted with the time the call has: said plainly; nothing is moved or sent.
    const same = await post(server.url, { token: linkIn(update, 'change').token, slot: to.start });
    expect(same.status).toBe(422);
    expect(await same.text()).toContain('Your call is already at that time.');
    const cancel = linkIn(update, 'cancel');
    const cancelled = await fetch(`${server.url}/schedule/cancel`, {
      method: 'POST',
      body: new URLSearchParams({ token: cancel.token }),
      headers: { Origin: server.url },
    });
    expect(cancelled.status).toBe(200);
    await expect.poll(() => callMails(mails).length).toBe(updates.length + 6);
    for (const mail of callMails(mails).slice(3 + updates.length)) {
      expect(eventOf(mail)).toMatchObject({ method: 'CANCEL', uid: booked.uid, sequence: 2 });
    }
  });

  it('lists the free days from the call’s own day (in the prospect’s zone), with the earlier days a link away', async () => {
    const server = await servers.start();
    const { slots } = await freeSlots(server);
    const zone = 'America/New_York';
    const day = (slot: Slot) => dateIn(slot.start, zone);
    // The first time of a day a week after the first free day, with other free times that day.
    const weekOn = slots.find(
      (slot) =>
        day(slot) >=
          dateIn(new Date(Date.parse(slots[0]!.start) + 7 * 86_400_000).toISOString(), zone) &&
        slots.filter((other) => day(other) === day(slot)).length > 1,
    )!;
    const response = await book(server, weekOn.start, { time_zone: zone });
    const { id } = (await response.json()) as { id: string };
    const token = signCallToken('change', id, 0, Date.parse(weekOn.start), SECRET);
    const page = await (await fetch(`${server.url}/schedule/change?token=${token}`)).text();
    const listed = [...page.matchAll(/name="slot" value="([^"]+)"/g)].map((m) => m[1]!);
    // The call's day comes first: its other times, not the first free day's.
    expect(dateIn(listed[0]!, zone)).toBe(day(weekOn));
    expect(listed[0]).toBe(
      slots.find((s) => day(s) === day(weekOn) && s.start !== weekOn.start)!.start,
    );
    // The days before it are a link away, and lead back to the first free day.
    const earlier = /href="(\/schedule\/change\?token=[^"]+)">Earlier days</.exec(page)?.[1];
    expect(earlier).toBeDefined();
    let back = page;
    for (let href = earlier; href;) {
      back = await (await fetch(`${server.url}${href.replaceAll('&amp;', '&')}`)).text();
      href = /href="(\/schedule\/change\?token=[^"]+)">Earlier days</.exec(back)?.[1];
    }
    const first = /name="slot" value="([^"]+)"/.exec(back)![1]!;
    expect(dateIn(first, zone) <= day(slots[0]!)).toBe(true);
  });

  it('refuses a forged, an expired and an unknown link, and changes nothing', async () => {
    const server = await servers.start();
    const { slots } = await freeSlots(server);
    const response = await book(server, thursdays(slots)[0]!.start);
    const { id } = (await response.json()) as { id: string };
    const good = signCallToken('change', id, 0, Date.parse(thursdays(slots)[0]!.start), SECRET);
    for (const token of [
      good.slice(0, -2) + (good.endsWith('AA') ? 'BB' : 'AA'),
      signCallToken('cancel', id, 0, Date.parse(thursdays(slots)[0]!.start), SECRET),
      signCallToken('change', id, 0, Date.parse(thursdays(slots)[0]!.start), 'x'.repeat(40)),
      signCallToken(
        'change',
        crypto.randomUUID(),
        0,
        Date.parse(thursdays(slots)[0]!.start),
        SECRET,
      ),
      'nonsense',
      '',
    ]) {
      const answer = await post(server.url, { token, slot: thursdays(slots)[3]!.start });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain('This link is not valid');
    }
    const expired = await fetch(
      `${server.url}/schedule/change?token=${signCallToken('change', id, 0, Date.now() - 1000, SECRET)}`,
    );
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This link has expired');
    // Still at its time, never moved.
    const [call] = await readStore(server.database);
    expect(call!.call).toMatchObject({ start: thursdays(slots)[0]!.start, sequence: 0, moves: 0 });
  });

  it('says no inside the notice period, and after three moves', async () => {
    const server = await servers.start();
    // A call 2 hours from now (booked before the notice period was what it is, say).
    const store = new SqliteStore(server.database);
    const soon = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 2 * 3_600_000)
      .toISOString()
      .replace('.000Z', 'Z');
    const near = await new Bookings(store).commit(
      {
        kind: 'call',
        name: 'Ada',
        email: 'ada@example.com',
        data: { name: 'Ada', email: 'ada@example.com', message: 'Hi' },
        clientIp: '127.0.0.1',
        userAgent: 'test',
        spam: false,
        call: {
          start: soon,
          end: new Date(Date.parse(soon) + 1_800_000).toISOString().replace('.000Z', 'Z'),
          hosts: ['anna'],
        },
      },
      false,
    );
    await store.close();
    const tooLate = await fetch(
      `${server.url}/schedule/change?token=${signCallToken('change', near.id, 0, Date.parse(soon), SECRET)}`,
    );
    expect(await tooLate.text()).toContain('too close to be moved here');

    const { slots } = await freeSlots(server);
    const times = thursdays(slots);
    const { id } = (await (await book(server, times[0]!.start)).json()) as { id: string };
    let start = times[0]!.start;
    for (let move = 0; move < 3; move++) {
      const token = signCallToken('change', id, move, Date.parse(start), SECRET);
      start = times[move + 1]!.start;
      expect((await post(server.url, { token, slot: start })).status).toBe(200);
    }
    const fourth = await post(server.url, {
      token: signCallToken('change', id, 3, Date.parse(start), SECRET),
      slot: times[5]!.start,
    });
    expect(await fourth.text()).toContain('This call has been moved three times');
    const stored = (await readStore(server.database)).find((e) => e.id === id)!;
    expect(stored.call).toMatchObject({ start, sequence: 3, moves: 3 });
  });

  it('two changes racing for one time: one moves, the other gets the nearest free times', async () => {
    const server = await servers.start();
    const { slots } = await freeSlots(server);
    // Wednesday: only Anna works, so one call holds the time.
    const wednesdays = onWeekday(slots, 'Wednesday');
    const ids: string[] = [];
    for (const slot of wednesdays.slice(0, 2)) {
      const response = await book(server, slot.start, { email: `p${ids.length}@example.com` });
      ids.push(((await response.json()) as { id: string }).id);
    }
    const target = wednesdays[5]!.start;
    const answers = await Promise.all(
      ids.map((id, i) =>
        post(server.url, {
          token: signCallToken('change', id, 0, Date.parse(wednesdays[i]!.start), SECRET),
          slot: target,
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const lost = await answers.find((a) => a.status === 409)!.text();
    expect(lost).toContain('That time was just taken, so your call stays at ');
    expect(lost).toContain('Nearest free times');
  });

  it('a time taken meanwhile keeps the call at its time, says which, and what the prospect can do', async () => {
    const server = await servers.start();
    const { slots } = await freeSlots(server);
    // Wednesday: only Anna works, so one call holds the time.
    const wednesdays = onWeekday(slots, 'Wednesday');
    const own = wednesdays[0]!.start;
    const booked = await book(server, own, { time_zone: 'America/New_York' });
    const { id } = (await booked.json()) as { id: string };
    const token = signCallToken('change', id, 0, Date.parse(own), SECRET);
    const page = await (await fetch(`${server.url}/schedule/change?token=${token}`)).text();
    const kept = timeShownOn(page);
    expect(kept).toContain('Eastern');
    expect(page).toContain(`value="${wednesdays[3]!.start}"`);

    // Another booking takes a time the page offered: with others free, the nearest are offered.
    await storeCalls(server, [wednesdays[3]!.start]);
    const taken = await post(server.url, { token, slot: wednesdays[3]!.start });
    expect(taken.status).toBe(409);
    const said = await taken.text();
    expect(timeShownOn(said)).toBe(kept);
    expect(said).toContain(
      `That time was just taken, so your call stays at ${kept}. Choose one of the nearest free times below, or keep your call at its time.`,
    );
    expect(said).toContain('Nearest free times');
    expect(said).not.toContain('Send your message');

    // Every other time taken as well: nothing to choose, the call stays, and the prospect is told
    // how to keep it or reach us, not to send a message there is no form for.
    const listed = (await listedSlots(server)).slots.filter((slot) => slot.start !== own);
    await storeCalls(
      server,
      listed.map((slot) => slot.start),
    );
    const none = await post(server.url, { token, slot: wednesdays[4]!.start });
    expect(none.status).toBe(409);
    const told = await none.text();
    expect(told).toContain(
      `That time was just taken, and no other time is free in the coming days, so your call stays at ${kept}. Keep it, or write to us from the contact page (/contact)`,
    );
    // In the content's words, where the times would be: the list without script and the picker
    // that takes it over, which is handed them.
    const words = noneFreeWords();
    const island = new JSDOM(told).window.document.querySelector(
      'astro-island[component-url*="ChangeTimeChoice"]',
    )!;
    expect(island.textContent).toContain(words);
    expect(JSON.parse(island.getAttribute('props')!).noneFree).toEqual([0, words]);
    expect(told).not.toContain('Send your message');
    expect(told).not.toContain('name="slot"');
    expect(told).not.toContain('Move the call');
    expect(told).toContain('Keep the current time');
    const stored = (await readStore(server.database)).find((e) => e.id === id)!;
    expect(stored.call).toMatchObject({ start: own, sequence: 0, moves: 0 });
  });
});

/** What the change page's content says when no other time is free: its section `none-free`. */
function noneFreeWords(): string {
  const { sections } = parse(readFileSync('src/content/pages/schedule-change.yaml', 'utf8')) as {
    sections: { id: string; paragraphs: string[] }[];
  };
  const words = sections.find((section) => section.id === 'none-free')?.paragraphs[0];
  expect(words, 'schedule-change.yaml: the section none-free').toBeTruthy();
  return words!;
}

/** The call's time as its page shows it, first of all (BookedCallDetails: the prospect's zone). */
const timeShownOn = (html: string) =>
  /class="booked-call__time[^"]*"[^>]*>\s*<strong[^>]*>([^<]+)<\/strong>/.exec(html)?.[1];

/** Calls booked straight into the server's store at `starts`, holding every host then. */
async function storeCalls(server: { database: string }, starts: string[]) {
  const store = new SqliteStore(server.database);
  const bookings = new Bookings(store, { bookingCap: Infinity });
  try {
    for (const start of starts)
      for (const host of ['anna', 'ben'])
        await bookings.commit(
          call(start, { call: { start, end: plus(start, 30), hosts: [host], confirmed: true } }),
          false,
        );
  } finally {
    await store.close();
  }
}

describe('the staff', () => {
  const cli = (server: { database: string }, args: string[]) =>
    promisify(execFile)(process.execPath, ['src/server/cli.ts', ...args], {
      env: {
        ...process.env,
        ENQUIRY_DB: server.database,
        // E-mail set up as on the server: the command queues, the server's queue of jobs sends.
        SMTP_URL: 'smtp://127.0.0.1:9?ignoreTLS=true',
        ENQUIRY_TO: 'sales@agency.example',
        ENQUIRY_FROM: 'website@agency.example',
      },
    });

  it('see each call’s state, host, moves and e-mails, and move or cancel it with the same e-mails as the links', async () => {
    const { server, mails } = await servers.startWithMail();
    const { slots } = await freeSlots(server);
    const [from, to] = [onWeekday(slots, 'Wednesday')[1]!, onWeekday(slots, 'Wednesday')[6]!];
    const { id } = (await (await book(server, from.start)).json()) as { id: string };
    await expect.poll(() => callMails(mails).length).toBe(3);
    const { stdout: listed } = await cli(server, []);
    expect(listed).toContain(`ref: ${id}`);
    expect(listed).toMatch(/call: .*, with Anna Reid \(anna\)\n/);

    const { stdout: moved } = await cli(server, [
      '--move',
      id,
      to.start,
      '--reason',
      'Anna is ill this week.',
    ]);
    expect(moved).toMatch(
      /^Moved the call from .* to .*, with Anna Reid \(anna\); the updates are queued\.$/m,
    );
    await expect.poll(() => callMails(mails).length).toBe(6);
    for (const mail of callMails(mails).slice(3))
      expect(eventOf(mail)).toMatchObject({
        method: 'REQUEST',
        sequence: 1,
        start: new Date(to.start).toISOString(),
      });
    // The e-mails say we moved it, and why; the agency's and Anna's who did it.
    const textTo = (address: string, from: number) =>
      decoded(
        callMails(mails)
          .slice(from)
          .find((mail) => mail.to.includes(address))!.raw,
      );
    const toProspect = textTo('ada@example.com', 3);
    expect(toProspect).toMatch(/We have moved your call\.\r?\nReason: Anna is ill this week\./);
    expect(toProspect).not.toContain('as you asked');
    for (const staff of ['sales@agency.example', 'anna@northgate-digital.example'])
      expect(textTo(staff, 3)).toMatch(/Moved by: staff\r?\nReason: Anna is ill this week\./);
    // Moved there again: refused, and nothing is queued (the count of e-mails below stays).
    await expect(cli(server, ['--move', id, to.start])).rejects.toMatchObject({
      stderr: expect.stringContaining('That call is already at that time: nothing was changed'),
    });
    const { stdout: csv } = await cli(server, ['--csv']);
    const [header, row] = csv
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const cell = (name: string) => row![header!.indexOf(name)];
    expect([
      cell('call_status'),
      cell('call_start'),
      cell('call_host'),
      cell('call_moves'),
    ]).toEqual(['moved', to.start, 'anna', '1']);
    // The confirmation, the invitation, the notice and the three updates went; the reminders wait.
    expect(cell('mails_sent')).toBe('6');
    expect(Number(cell('mails_waiting'))).toBeGreaterThan(0);
    expect(cell('mails_failed')).toBe('0');

    const { stdout: cancelled } = await cli(server, ['--cancel', id]);
    expect(cancelled).toMatch(/^Cancelled the call of .*; the cancellations are queued\.$/m);
    await expect.poll(() => callMails(mails).length).toBe(9);
    for (const mail of callMails(mails).slice(6))
      expect(eventOf(mail)).toMatchObject({ method: 'CANCEL', sequence: 2 });
    expect(textTo('ada@example.com', 6)).toContain('We have cancelled your call of ');
    expect(textTo('ada@example.com', 6)).not.toContain('Reason:');
    expect(textTo('sales@agency.example', 6)).toContain('Cancelled by: staff');
    await expect(cli(server, ['--cancel', id])).rejects.toMatchObject({
      stderr: expect.stringContaining('That call was cancelled already.'),
    });
    await expect(cli(server, ['--move', crypto.randomUUID(), to.start])).rejects.toMatchObject({
      stderr: expect.stringContaining('No booked call has the reference'),
    });
    const { stdout: after } = await cli(server, ['--csv']);
    expect(after).toMatch(/,cancelled \d{4}-/);
  });
});
