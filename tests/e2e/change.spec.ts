/**
 * Moving a booked call with its change link, as a prospect: without JavaScript (the free times as
 * radio buttons, posted natively), and with it on a phone (the dialog's time picker over the same
 * times, in the prospect's zone). The test server sends no e-mail, so the booked page shows the
 * call's links itself. axe finds nothing on the way.
 */
import { expect, type Page } from '@playwright/test';
import { test } from './shared-page';
import { violations } from './helpers';
import { dateIn } from '../../src/domain/call-times';

/**
 * Books a call natively on /schedule at the first free time of the `day`-th day listed from
 * `from` (late in the window, away from the other tests' bookings), and opens its change link from
 * the booked page. The time booked.
 */
async function bookAndOpenChange(page: Page, from: string, day: number) {
  await page.goto(`/schedule?from=${from}`);
  const main = page.getByRole('main');
  await main.getByLabel('Name').fill('Ada Lovelace');
  await main.getByLabel('Email').fill('ada@example.com');
  await main.getByLabel('Message').fill('An iPad app for our clinics.');
  const time = page
    .getByRole('group', { name: 'Time for the call' })
    .getByRole('group')
    .nth(day)
    .getByRole('radio')
    .first();
  const start = (await time.getAttribute('value'))!;
  await time.check();
  await main.getByRole('button', { name: 'Book this call' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your call is booked');
  // No e-mail is sent by the test server: the page says so and shows the links.
  await expect(page.getByText('We cannot e-mail you just now')).toBeVisible();
  await page.getByRole('link', { name: 'Change the time' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Choose a new time for your call',
  );
  return start;
}

/** A date near the end of the offered window (availability.yaml: 21 days), as /schedule takes it. */
const lateDate = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false, timezoneId: 'America/New_York' });

  test('the change page lists the free times as radio buttons, and a post moves the call', async ({
    page,
  }) => {
    const start = await bookAndOpenChange(page, lateDate(12), 0);
    const times = page.getByRole('group', { name: 'Time for the call' });
    await expect(times.getByText(/Times are UK time \(London\), your time zone\./)).toBeVisible();
    // Its own time is not among them.
    await expect(times.locator(`input[value="${start}"]`)).toHaveCount(0);
    const choice = times.getByRole('group').nth(1).getByRole('radio').first();
    const chosen = (await choice.getAttribute('value'))!;
    await choice.check();
    await page.getByRole('button', { name: 'Move the call' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your call is moved');
    await expect(page.getByText(/^Moved from: /)).toBeVisible();
    // A new link to change it again; the old one is used.
    await expect(page.getByRole('link', { name: 'Change the time' })).toBeVisible();
    // Back to the page of the old link: it has been used, and offers nothing.
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link has been used');
    await expect(page.getByRole('radio')).toHaveCount(0);
    expect(chosen).not.toBe(start);
  });
});

test.describe('on a phone, with JavaScript', () => {
  test.use({ timezoneId: 'America/New_York', viewport: { width: 375, height: 800 } });

  test('the dialog’s time picker over the same times, in the prospect’s zone, moves the call', async ({
    page,
  }) => {
    const start = await bookAndOpenChange(page, lateDate(15), 1);
    const picker = page.getByRole('group', { name: 'Time for the call' });
    // The picker has taken over from the list: a day at a time, opening on the call's own day
    // (its other times there), not the first free one.
    const day = picker.getByLabel('Day');
    await expect(day).toBeVisible();
    await expect(day).toHaveValue(dateIn(start, 'Europe/London'));
    // The prospect's zone as when they booked: /schedule, which sends none, books in the office's.
    await expect(
      picker.getByText(/Times are in your time zone, UK time \(London\)\./),
    ).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await day.selectOption({ index: 2 });
    const time = picker
      .getByRole('group', { name: /^Free times on / })
      .getByRole('radio')
      .first();
    await time.check();
    await page.getByRole('button', { name: 'Move the call' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your call is moved');
    await expect(page.getByText(/^Moved from: /)).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath('moved-375.png'), fullPage: true });
  });
});
