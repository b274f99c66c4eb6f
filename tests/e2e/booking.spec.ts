/**
 * Booking a call: in the Schedule a Call dialog (a day, then a time, in the visitor's zone), when
 * the time is taken meanwhile, without JavaScript on /schedule, and the whole way to the
 * invitation in a mailbox and its cancel link. axe finds nothing at any step.
 */
import { expect, type Page } from '@playwright/test';
import { test } from './shared-page';
import { readStore } from '../support/server';
import { decoded } from '../support/mime';
import { chooseFirstTime, openCallRequest, startMailingSite, violations } from './helpers';
import { e2eDatabase } from '../support/site';
import { FIRST_TIMES } from '../../src/domain/hand-over';

/**
 * The starts of the calls booked (and neither moved nor cancelled), read from the store as the
 * staff CLI reads it; the CLI itself has its tests (tests/integration/). A CLI process for each
 * look cost a Node start.
 */
async function callStarts(database = e2eDatabase) {
  return (await readStore(database))
    .filter(({ call }) => call && !call.cancelledAt && call.moves === 0)
    .map(({ call }) => call!.start);
}

/** A time as a New York visitor's (en-US) page writes it: '9:30 AM'. */
const inNewYorkClock = (start: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    hour: 'numeric',
    minute: '2-digit',
  })
    .format(new Date(start))
    .replace('\u202f', ' ');

/**
 * The time step's code (its island's component), and Astro's retries of it: a failed import of an
 * island's code is asked for again, with `?astro-retry=…`.
 */
const TIME_STEP_CODE = /\/_astro\/CallTimeStep\.[^/?]+\.js(\?|$)/;

/** Holds the time step's code on its way until `release()` is called. */
async function holdTimeStepCode(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(TIME_STEP_CODE, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

async function openDialog(page: Page, path = '/iphone') {
  await page.goto(path);
  return openCallRequest(page, { message: 'An iPad app for our clinics.' });
}

/** Opens the time step and picks the first free time of the `day`-th day offered. */
async function pickTime(page: Page, day: number) {
  const dialog = page.getByRole('dialog', { name: 'Schedule a Call' });
  await dialog.getByRole('link', { name: 'Choose a time for the call' }).click();
  await expect(dialog.getByLabel('Day')).toBeFocused();
  return chooseFirstTime(dialog, day);
}

test.describe('in the dialog', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('a prospect picks a day and a time in their own zone and books the call', async ({
    page,
  }) => {
    const dialog = await openDialog(page);
    const start = await pickTime(page, 1);
    await expect(
      dialog.getByText('Times are in your time zone, Eastern Time (New York).'),
    ).toBeVisible();
    await expect(dialog.getByText('We are in London: UK time.')).toBeVisible();
    // Each time is shown in the visitor's zone, on their (en-US) 12-hour clock, with London's beside it.
    const label = await dialog.getByRole('radio', { checked: true }).locator('..').innerText();
    const inNewYork = inNewYorkClock(start);
    expect(inNewYork).toMatch(/ [AP]M$/);
    expect(label).toContain(inNewYork);
    expect(label).toContain('in London');
    // Heard as two times, not one run of clocks: "4:30 AM, 9:30 AM in London".
    await expect(dialog.getByRole('radio', { checked: true })).toHaveAccessibleName(
      new RegExp(`^${inNewYork} ?, .* in London$`),
    );
    expect(await violations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Book this call' }).click();
    await expect(page).toHaveURL(/\/schedule\/booked\?token=/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your call is booked');
    await expect(page.getByText(`${inNewYork} Eastern Time`)).toBeVisible();
    expect(await violations(page)).toEqual([]);
    expect(await callStarts()).toContain(start);
  });

  test("'Just send a message' leaves the time out and sends a call request", async ({ page }) => {
    const dialog = await openDialog(page);
    await pickTime(page, 2);
    await dialog.getByRole('button', { name: 'Just send a message' }).click();
    const link = dialog.getByRole('link', { name: 'Choose a time for the call' });
    await expect(link).toBeFocused();
    await dialog.getByRole('button', { name: 'Request a call' }).click();
    await expect(page).toHaveURL(/\/thankyou$/);
  });

  test('a time taken meanwhile gets a clear answer and the nearest free times, one of which books', async ({
    page,
    request,
  }) => {
    const dialog = await openDialog(page);
    const start = await pickTime(page, 3);
    // Others book that time first, with every host who has it free (a time two hosts have is
    // booked twice, one host each), until the next booking of it is refused.
    const statuses: number[] = [];
    for (let other = 1; !statuses.includes(409) && other <= 5; other++) {
      const response = await request.post('/send-mail.php', {
        headers: { Accept: 'application/json' },
        form: { name: 'Bob', email: `bob${other}@example.com`, message: 'Hello', slot: start },
      });
      statuses.push(response.status());
    }
    expect(statuses[0]).toBe(200);
    expect(statuses.at(-1)).toBe(409);

    await dialog.getByRole('button', { name: 'Book this call' }).click();
    const summary = dialog.locator('.error-summary');
    await expect(summary).toBeFocused();
    await expect(summary).toContainText(
      'That time was just taken. Here are the nearest free ones.',
    );
    const nearest = dialog.getByRole('group', { name: 'Nearest free times' }).getByRole('radio');
    await expect(nearest).toHaveCount(3);
    await expect(dialog.getByRole('button', { name: 'Request a call' })).toBeVisible();
    expect(await violations(page)).toEqual([]);

    const alternative = (await nearest.first().getAttribute('value'))!;
    expect(alternative).not.toBe(start);
    await nearest.first().check();
    await dialog.getByRole('button', { name: 'Book this call' }).click();
    await expect(page).toHaveURL(/\/schedule\/booked\?token=/);
    expect(await callStarts()).toEqual(expect.arrayContaining([start, alternative]));
  });

  test('a booking sent as the connection drops is kept on the phone and booked once it returns', async ({
    page,
    context,
  }) => {
    const dialog = await openDialog(page);
    const start = await pickTime(page, 4);
    await context.setOffline(true);
    await dialog.getByRole('button', { name: 'Book this call' }).click();
    await expect(dialog.getByRole('status')).toContainText('Saved on this phone');
    // Kept: the form is ready for another request, the time step closed with it.
    await expect(dialog.getByRole('button', { name: 'Request a call' })).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'Choose a time for the call' })).toBeVisible();
    expect(await callStarts()).not.toContain(start);
    await context.setOffline(false);
    // Booked, not merely sent: its page, with its time and what comes next, one tap away.
    await expect(dialog.getByRole('status')).toContainText('Booked. Your call is booked');
    await expect.poll(async () => (await callStarts()).filter((s) => s === start).length).toBe(1);
    // Told until seen, on the next page too (as after a send in the background, the page closed).
    await page.reload();
    const notice = page.locator('.outbox');
    await expect(notice).toContainText('Booked. Your call is booked');
    await notice.getByRole('link', { name: 'see its time and what happens next' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your call is booked');
    // Its own page seen, the phone keeps nothing of it: once that page's island has read what the
    // phone keeps (a page left before then, its server-rendered heading already there, had not).
    await expect.poll(() => page.evaluate(() => localStorage.getItem('enquiry-outbox'))).toBeNull();
    await page.goto('/iphone');
    await page.waitForTimeout(500);
    await expect(notice).toBeEmpty();
  });

  test('a tap on "Choose a time" before its code arrives offers the first days at once (asked for as the dialog opened); the picker takes over with the time chosen', async ({
    page,
  }) => {
    const release = await holdTimeStepCode(page);
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/schedule/slots.json')) asked.push(url.search);
    });
    const dialog = await openDialog(page);
    // Asked for as the dialog opened, before any tap on "Choose a time".
    await expect.poll(() => asked).toEqual(['?days=3']);
    await dialog.getByRole('link', { name: 'Choose a time for the call' }).click();
    expect(page.url()).toMatch(/\/iphone$/);
    const days = dialog.locator(`[${FIRST_TIMES}]`).getByRole('group');
    await expect(days).toHaveCount(3);
    const times = dialog.getByRole('radio');
    await expect(times.first()).toBeFocused();
    // In the visitor's zone, named, on their (en-US) 12-hour clock.
    const second = times.nth(1);
    const start = (await second.getAttribute('value'))!;
    const inNewYork = inNewYorkClock(start);
    const label = (await second.locator('..').innerText()).trim().replace('\u202f', ' ');
    expect(label).toMatch(new RegExp(`^${inNewYork} E[SD]T$`));
    await second.check();
    expect(await violations(page)).toEqual([]);

    release();
    await expect(dialog.getByLabel('Day')).toBeFocused();
    await expect(dialog.getByRole('radio', { checked: true })).toHaveAttribute('value', start);
    await expect(dialog.getByRole('radio', { name: new RegExp(`^${inNewYork}`) })).toHaveCount(1);
    // The rest of the days, asked for by the picker, come after.
    await expect.poll(() => asked).toEqual(['?days=3', '']);
    await expect.poll(() => dialog.getByLabel('Day').locator('option').count()).toBeGreaterThan(3);
    await dialog.getByRole('button', { name: 'Book this call' }).click();
    await expect(page).toHaveURL(/\/schedule\/booked\?token=/);
    expect(await callStarts()).toContain(start);
  });

  test("a time chosen from the first days books the call even if the picker's code never comes", async ({
    page,
  }) => {
    const asked: string[] = [];
    await page.route(TIME_STEP_CODE, (route) => {
      asked.push(route.request().url());
      return route.abort();
    });
    const dialog = await openDialog(page);
    await dialog.getByRole('link', { name: 'Choose a time for the call' }).click();
    const time = dialog.getByRole('radio').nth(3);
    await time.check();
    const start = (await time.getAttribute('value'))!;
    await dialog.getByRole('button', { name: 'Book this call' }).click();
    await expect(page).toHaveURL(/\/schedule\/booked\?token=/);
    const inNewYork = inNewYorkClock(start);
    await expect(page.getByText(`${inNewYork} Eastern Time`)).toBeVisible();
    expect(await callStarts()).toContain(start);
    // It never came: Astro's retry was refused too.
    expect(asked.length).toBeGreaterThan(0);
  });

  test("a time chosen among the first days is booked when the picker's code comes after it, though the picker's times then leave it out", async ({
    page,
  }) => {
    const release = await holdTimeStepCode(page);
    // Every day's times, answered without the time chosen (as if it had been taken meanwhile): the
    // picker shows no radio button for it, as it shows none while its times are loading.
    let start = '';
    let answered!: () => void;
    const whole = new Promise<void>((resolve) => (answered = resolve));
    await page.route(
      (url) => url.pathname === '/schedule/slots.json' && !url.search,
      async (route) => {
        const body = (await (await route.fetch()).json()) as { slots: { start: string }[] };
        body.slots = body.slots.filter((slot) => slot.start !== start);
        await route.fulfill({ json: body });
        answered();
      },
    );
    const dialog = await openDialog(page);
    await dialog.getByRole('link', { name: 'Choose a time for the call' }).click();
    const time = dialog.locator(`[${FIRST_TIMES}]`).getByRole('radio').nth(2);
    await time.check();
    start = (await time.getAttribute('value'))!;
    release();
    await whole;
    await expect(dialog.getByLabel('Day')).toBeVisible();
    await expect(dialog.getByRole('radio', { checked: true })).toHaveCount(0);
    // The button still books the time chosen: the form sends it, not a message instead.
    await dialog.getByRole('button', { name: 'Book this call' }).click();
    await expect(page).toHaveURL(/\/schedule\/booked\?token=/);
    expect(await callStarts()).toContain(start);
  });

  test('with no time free, the dialog says so and offers to send a message, not to book', async ({
    page,
  }) => {
    await page.route('**/schedule/slots.json*', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ open: true, timeZone: 'Europe/London', callMinutes: 30, slots: [] }),
      }),
    );
    const dialog = await openDialog(page);
    await dialog.getByRole('link', { name: 'Choose a time for the call' }).click();
    await expect(
      dialog.getByText(
        'No time is free in the coming days. Just send a message and we will reply to arrange one.',
      ),
    ).toBeFocused();
    await expect(dialog.getByRole('radio')).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Book this call' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Request a call' }).click();
    await expect(page).toHaveURL(/\/thankyou$/);
  });

  test('a tap on "Choose a time" before even the dialog has its code opens the times once both arrive', async ({
    page,
  }) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/_astro\/(ScheduleCallModal|CallTimeStep)\.[^/]*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/iphone');
    await page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule a Call' });
    await dialog.getByRole('link', { name: 'Choose a time for the call' }).click();
    await page.waitForTimeout(300);
    expect(page.url()).toMatch(/\/iphone$/);
    release();
    await expect(dialog.getByLabel('Day')).toBeFocused();
  });
});

test.describe('far from the office', () => {
  // Auckland is 13 hours ahead of London in December: the office's mornings are the visitor's
  // evenings, and its afternoons the visitor's next day.
  test.use({ timezoneId: 'Pacific/Auckland', locale: 'en-NZ' });

  test("each time names the office's day where it is not the visitor's", async ({ page }) => {
    const dialog = await openDialog(page);
    await pickTime(page, 1);
    await expect(
      dialog.getByText('Times are in your time zone, New Zealand Time (Auckland).'),
    ).toBeVisible();
    const day = dialog.getByRole('group', { name: /^Free times on / });
    const visitorDay = (await day.locator('legend').innerText()).replace('Free times on ', '');
    const lines = await day.locator('small').allInnerTexts();
    const londonDay = lines.map((line) => /^\S+ (?:[ap]m )?(\w{3} )?in London$/.exec(line));
    // Every line says where it is; the office's day only where its date is the day before.
    expect(londonDay.every(Boolean), lines.join(' | ')).toBe(true);
    const before = londonDay.filter((match) => match![1]);
    expect(before.length, lines.join(' | ')).toBeGreaterThan(0);
    const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
    const dayBefore = weekdays[(weekdays.indexOf(visitorDay.slice(0, 3)) + 6) % 7];
    for (const match of before) expect(match![1]!.trim()).toBe(dayBefore);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('/schedule lists the free times as radio buttons and books natively', async ({ page }) => {
    await page.goto('/schedule');
    await expect(page.getByText("Times are UK time (London), our office's time.")).toBeVisible();
    const days = page.getByRole('group', { name: 'Time for the call' }).getByRole('group');
    expect(await days.count()).toBeGreaterThanOrEqual(3);
    // The browser's language (en-US here) sets the clock: 12-hour.
    expect(await days.first().locator('label').first().innerText()).toMatch(
      /^\d{1,2}:\d{2} [AP]M$/,
    );

    // Sent without a time: the form comes back with the reason and what was typed.
    await page.getByRole('main').getByLabel('Name').fill('Grace Hopper');
    await page.getByRole('main').getByLabel('Email').fill('grace@example.com');
    await page.getByRole('main').getByLabel('Message').fill('A booking platform.');
    await page.getByRole('main').getByRole('button', { name: 'Book this call' }).click();
    await expect(page.locator('main .error-summary')).toContainText('Choose a time for the call.');
    await expect(page.getByRole('main').getByLabel('Name')).toHaveValue('Grace Hopper');

    const time = days.nth(2).getByRole('radio').first();
    const start = (await time.getAttribute('value'))!;
    await time.check();
    await page.getByRole('main').getByRole('button', { name: 'Book this call' }).click();
    await expect(page).toHaveURL(/\/schedule\/booked\?token=/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your call is booked');
    expect(await callStarts()).toContain(start);
  });
});

// axe runs in the page: the same /schedule, and its answer to a post without a time, with scripts on.
test('/schedule and its answer to a mistake have no axe violations', async ({ page }) => {
  await page.goto('/schedule');
  expect(await violations(page)).toEqual([]);
  await page.getByRole('main').getByLabel('Name').fill('Grace Hopper');
  await page.getByRole('main').getByRole('button', { name: 'Book this call' }).click();
  await expect(page.locator('main .error-summary')).toContainText('Choose a time for the call.');
  expect(await violations(page)).toEqual([]);
});

test('a booking reaches the mailbox with its invitation, and its link cancels it', async ({
  page,
}) => {
  // It starts a server of its own with a mailbox: 60 s ran out beside a fresh `npm test` on a slower machine.
  test.setTimeout(180_000);
  const { server, smtp } = await startMailingSite({
    BOOKING_SECRET: 'e2e-mail-secret-0123456789abcdef0123',
  });
  try {
    const dialog = await openDialog(page, `${server.url}/`);
    // The second day's: the first day's first time may leave the notice period before the post.
    const start = await pickTime(page, 1);
    await dialog.getByRole('button', { name: 'Book this call' }).click();
    await expect(page).toHaveURL(/\/schedule\/booked\?token=/);

    // The agency's notice, the prospect's invitation, and its host's.
    await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBe(3);
    const invitation = smtp.received.find((mail) => mail.to.includes('ada@example.com'))!;
    expect(invitation.raw).toContain('METHOD:REQUEST');
    expect(invitation.raw).toContain(`DTSTART:${start.replace(/[-:]/g, '')}`);
    const link = /http:\/\/127\.0\.0\.1:\d+\/schedule\/cancel\?token=[\w.-]+/.exec(
      decoded(invitation.raw),
    )![0];
    expect(await callStarts(server.database)).toEqual([start]);

    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Do you want to cancel this call?',
    );
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Cancel the call' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your call is cancelled');
    expect(await violations(page)).toEqual([]);
    await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBe(6);
    expect(smtp.received.slice(3).every((mail) => mail.raw.includes('METHOD:CANCEL'))).toBe(true);
    expect(await callStarts(server.database)).toEqual([]);

    // The same link again says so.
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This call was already cancelled',
    );
  } finally {
    await server.stop();
    await smtp.close();
  }
});
