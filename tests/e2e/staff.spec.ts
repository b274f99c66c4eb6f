/**
 * A host's morning on the staff desk, on a phone-sized window: signed in by the e-mailed link, a
 * passkey added with Chromium's virtual authenticator, signed out and in again with it; today's
 * calls seen, one moved and one cancelled, an enquiry marked handled; axe finds nothing on each
 * page. The site runs at http://localhost (a passkey is bound to a host name, never an address).
 */
import {
  expect,
  type Browser,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from '@playwright/test';
import { test } from './shared-page';
import { bookableTimes } from '../support/free-times';
import { freePort, postForm, startServer } from '../support/server';
import { call } from '../support/records';
import { readConfig } from '../../src/server/config';
import { storedHash } from '../../src/server/staff/access';
import { openStore } from '../../src/server/store/index';
import { textOf } from '../support/mime';
import { expectOutlined } from './contrast';
import { startMailingSite, violations } from './helpers';

test.use({ viewport: { width: 375, height: 800 } });

/** A virtual authenticator of the platform's kind (Touch ID, Windows Hello) on the page's browser. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  /** The device's passkeys gone (another device, or one wiped): its prompt finds none to use. */
  return { forget: () => cdp.send('WebAuthn.clearCredentials', { authenticatorId }) };
}

/**
 * The focused heading's focus ring is drawn and hides no words: neither its own nor those of the
 * elements just before and after it (the ring's box from its computed outline, against theirs).
 */
async function expectRingClear(page: Page) {
  const seen = await page.evaluate(() => {
    const heading = document.activeElement as HTMLElement;
    const style = getComputedStyle(heading);
    const [width, offset] = [style.outlineWidth, style.outlineOffset].map(parseFloat) as [
      number,
      number,
    ];
    const box = heading.getBoundingClientRect();
    const words = document.createRange();
    words.selectNodeContents(heading);
    const text = words.getBoundingClientRect();
    const [before, after] = [heading.previousElementSibling, heading.nextElementSibling].map(
      (element) => element?.getBoundingClientRect(),
    );
    return {
      drawn: heading.matches(':focus-visible') && style.outlineStyle !== 'none' && width > 0,
      // Where the ring reaches out to, and where it starts, beyond (or within) the box's edge.
      outer: { top: box.top - offset - width, bottom: box.bottom + offset + width },
      inner: {
        top: box.top - offset,
        bottom: box.bottom + offset,
        left: box.left - offset,
        right: box.right + offset,
      },
      text: { top: text.top, bottom: text.bottom, left: text.left, right: text.right },
      before: before && before.bottom,
      after: after && after.top,
    };
  });
  expect(seen.drawn).toBe(true);
  expect(seen.text.top).toBeGreaterThanOrEqual(seen.inner.top);
  expect(seen.text.bottom).toBeLessThanOrEqual(seen.inner.bottom);
  expect(seen.text.left).toBeGreaterThanOrEqual(seen.inner.left);
  expect(seen.text.right).toBeLessThanOrEqual(seen.inner.right);
  if (seen.before !== undefined) expect(seen.before).toBeLessThanOrEqual(seen.outer.top + 0.5);
  if (seen.after !== undefined) expect(seen.after).toBeGreaterThanOrEqual(seen.outer.bottom - 0.5);
}

test('a host’s morning: sign in by link, add a passkey, sign in with it, move and cancel calls, mark an enquiry handled', async ({
  page,
}) => {
  // A whole morning's flow with a server of its own: it ran out of 90 s beside a fresh `npm test`'s
  // other phases on a slower machine (2026-11-30). A test that passes ends when it is done.
  test.setTimeout(240_000);
  const { server, smtp, site } = await startMailingSite(
    {
      BOOKING_SECRET: 'e2e-staff-secret-0123456789abcdef0123',
      LOG_FORMAT: 'json',
    },
    'localhost',
  );
  try {
    // The morning's calls (the first free times a test may book) and an enquiry.
    const { slots } = await bookableTimes(server.url);
    for (const [i, slot] of slots.slice(0, 3).entries())
      expect(
        (
          await postForm(`${server.url}/send-mail.php`, {
            name: `Prospect ${i}`,
            email: `p${i}@example.com`,
            message: 'An app for our clinics.',
            slot: slot.start,
            idempotency_key: crypto.randomUUID(),
          })
        ).status,
      ).toBe(200);
    await postForm(`${server.url}/php/email.php`, {
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      contact: '+44 20 7946 0000',
      service: 'Web Development',
      project: 'A booking platform.',
      idempotency_key: crypto.randomUUID(),
    });
    const authenticator = await virtualAuthenticator(page);

    // Signed out: the sign-in page, with its passkey button (the browser has passkeys).
    await page.goto(`${site}/staff`);
    await expect(page).toHaveURL(`${site}/staff/sign-in`);
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('Work e-mail').fill('anna@northgate-digital.example');
    await page.getByRole('button', { name: 'E-mail me a link' }).click();
    await expect(page.getByRole('status')).toContainText('a link to sign in is on its way');
    // A mistyped address, or the passkey after all: the form again, from the page that says so.
    await page.getByRole('link', { name: 'Sign in another way' }).click();
    await expect(page.getByLabel('Work e-mail')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
    const signInMail = () =>
      smtp.received.filter((mail) => mail.raw.includes('@staff-sign-in.invalid>'));
    await expect.poll(() => signInMail().length, { timeout: 10_000 }).toBe(1);
    const link = /http:\/\/localhost:\d+\/staff\/sign-in\?token=\S+/.exec(
      textOf(signInMail()[0]!.raw) ?? '',
    )![0];
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${site}/staff`);
    await expect(page.getByRole('heading', { name: 'Calls ahead' })).toBeVisible();
    expect(await violations(page)).toEqual([]);
    // Its fields (the search, the notes) outlined as the site's are: axe checks text only.
    await expectOutlined(page);

    // A passkey, then out and in again with it: no e-mail.
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(page.getByText('Passkey added')).toBeVisible();
    // The keyboard's place is kept: still on the button, not dropped to the page's start.
    await expect(page.getByRole('button', { name: 'Add a passkey' })).toBeFocused();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page).toHaveURL(`${site}/staff/sign-in`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(`${site}/staff`);
    expect(signInMail()).toHaveLength(1);
    await expect(page.getByText('signed in (with a passkey)')).toBeVisible();
    // A passkey added and used: the log has a line for each, and not one warning.
    const lines = server
      .output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(lines.filter((line) => line.level !== 'info')).toEqual([]);
    expect(lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['Staff anna added a passkey', 'Staff anna signed in with a passkey']),
    );

    // Move the first call to another free time, then cancel the second.
    await page.getByRole('button', { name: 'Move or cancel' }).first().click();
    // The prospect's picker: large time buttons by day, each with its host; the reason's field
    // at 16 px or more (iOS zooms into a smaller one).
    expect(await violations(page)).toEqual([]);
    await expectOutlined(page);
    await page
      .locator('section[aria-labelledby="change-title"]')
      .screenshot({ path: 'test-results/staff-change-375.png' });
    const reason = page.getByLabel('Reason for the move (optional, told to the prospect)');
    expect(
      await reason.evaluate((input) => parseFloat(getComputedStyle(input).fontSize)),
    ).toBeGreaterThanOrEqual(16);
    expect((await reason.boundingBox())!.width).toBeGreaterThan(300);
    expect(
      (await page.locator('.time-choice__time').first().boundingBox())!.height,
    ).toBeGreaterThanOrEqual(44);
    // The reason typed is kept through Later days (a button of the form: no script needed).
    await reason.fill('Anna is away that week.');
    await page.getByRole('button', { name: 'Later days' }).click();
    await expect(page).toHaveURL(/[?&]day=\d{4}-\d{2}-\d{2}/);
    await expect(reason).toHaveValue('Anna is away that week.');
    // Enter in the reason's box moves the call, as Move the call does (not Earlier days).
    await page.getByRole('radio').first().check();
    await reason.press('Enter');
    await expect(page.getByRole('status').first()).toContainText('The call is moved');
    await expect(page.locator(':focus')).toContainText('The call is moved');
    // Who moved it and when, in words (read as they are), within the phone's width.
    await expect(page.locator(':focus .staff-call-moved')).toHaveText(
      /^Moved by Anna Reid on \d{1,2} \w{3} \d{4}, \d{2}:\d{2}$/,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await page.getByRole('button', { name: 'Move or cancel' }).nth(1).click();
    // Cancelling asks first, on a step of its own, with its own reason.
    await page.getByRole('link', { name: /^Cancel .*’s call…$/ }).click();
    await expect(page.getByRole('heading', { name: /^Cancel .*’s call\?$/ })).toBeFocused();
    await expectRingClear(page);
    expect(await violations(page)).toEqual([]);
    await expectOutlined(page);
    await page.screenshot({ path: 'test-results/staff-cancel-375.png' });
    await page.getByLabel('Reason (optional, told to the prospect)').fill('Anna is away.');
    await page.getByRole('button', { name: 'Yes, cancel the call' }).click();
    await expect(page.getByRole('status').first()).toContainText('The call is cancelled');
    await expect(page.locator(':focus')).toContainText('The call is cancelled');

    // The enquiry, found by name among all enquiries, handled, with a note.
    await page.getByLabel('Name, e-mail or reference').fill('grace');
    await page.getByLabel('List', { exact: true }).selectOption('All enquiries');
    await page.getByRole('button', { name: 'Find' }).click();
    const grace = page.locator('li', { hasText: 'Grace Hopper' });
    await grace.getByRole('button', { name: 'Mark handled' }).click();
    // Back at the enquiry, said there; then a note on it.
    await expect(page.locator('li.staff-card', { hasText: 'Grace Hopper' })).toContainText(
      'Handled by Anna Reid',
    );
    // Read as one line: who and when, the comma at the name (not three items of the line apart).
    expect(
      await page
        .locator('li.staff-card', { hasText: 'Grace Hopper' })
        .locator('.staff-card__group', { hasText: 'Handled by' })
        .innerText(),
    ).toMatch(/^Handled by Anna Reid, \d/);
    await expect(page.locator(':focus')).toContainText('Marked handled.');
    await page
      .locator('li', { hasText: 'Grace Hopper' })
      .getByLabel('Private note')
      .fill('Quote sent.');
    await page.getByRole('button', { name: 'Add the note' }).click();
    await expect(
      page.locator('li', { hasText: 'Grace Hopper' }).locator('.staff-notes'),
    ).toContainText('Quote sent.');
    await expect(page.locator(':focus')).toContainText('The note is added.');
    // Found again however it is typed: its case and accents are not the stored name's.
    await page.getByLabel('Name, e-mail or reference').fill('GRÂCE hopp');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(page.locator('li.staff-card', { hasText: 'Grace Hopper' })).toBeVisible();
    // A long e-mail searched for wraps in the list's title: the page stays a phone's width.
    await page.getByLabel('Name, e-mail or reference').fill('ingrid.bergstrom4@client4.example');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(page.locator('#list-title')).toContainText('ingrid.bergstrom4@client4.example');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await page.getByLabel('Name, e-mail or reference').fill('GRÂCE hopp');
    await page.getByRole('button', { name: 'Find' }).click();
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/staff-desk-375.png', fullPage: true });
    // The same desk on a laptop.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await violations(page)).toEqual([]);

    // The phone with the passkey is lost: removed on the desk, it signs no one in any more.
    await expect(page.getByText(/^Passkey 1: added .*, last used /)).toBeVisible();
    await page
      .locator('section[aria-labelledby="own-sign-in-title"]')
      .screenshot({ path: 'test-results/staff-own-sign-in-1280.png' });
    await page.getByRole('button', { name: 'Remove passkey 1' }).click();
    await expect(
      page.getByText('The passkey is removed: it no longer signs you in.'),
    ).toBeVisible();
    await expect(page.getByText(/^Passkey 1/)).toHaveCount(0);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    // Refused by the server: why, in words, and the focus on them (a screen reader reads them).
    await expect(
      page.getByRole('status').filter({ hasText: 'That passkey does not sign anyone in here' }),
    ).toBeFocused();
    await expect(page).toHaveURL(`${site}/staff/sign-in`);
    // This device has no passkey left: the browser's prompt fails, and says so the same way.
    await authenticator.forget();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'No passkey was used' })).toBeFocused();
    await expect(page.getByRole('status')).toContainText('sign in with a link');
    await page.screenshot({ path: 'test-results/staff-passkey-refused-1280.png' });
  } finally {
    await server.stop();
    await smtp.close();
  }
});

test('without JavaScript, by keyboard alone: sign in by link, move a call, mark an enquiry handled; no dead passkey button', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { server, smtp } = await startMailingSite({
    BOOKING_SECRET: 'e2e-staff-secret-0123456789abcdef0123',
  });
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 375, height: 800 },
  });
  const page = await context.newPage();
  try {
    const { slots } = await bookableTimes(server.url);
    for (const [i, name] of ['Zed Prospect', 'Yan Prospect'].entries())
      await postForm(`${server.url}/send-mail.php`, {
        name,
        email: `z${i}@example.com`,
        message: 'An app.',
        slot: slots[i]!.start,
        idempotency_key: crypto.randomUUID(),
      });
    await page.goto(`${server.url}/staff`);
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeHidden();
    // The first stop of the keyboard, shown once it has the focus: past the header, into the page.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
    for (let i = 0; i < 10 && (await focused()) !== 'staff-email'; i++)
      await page.keyboard.press('Tab');
    await page.keyboard.type('anna@northgate-digital.example');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status')).toContainText('on its way');
    const signIn = () =>
      smtp.received.filter((mail) => mail.raw.includes('@staff-sign-in.invalid>'));
    await expect.poll(() => signIn().length, { timeout: 10_000 }).toBe(1);
    await page.goto(
      /http:\/\/\S+\/staff\/sign-in\?token=\S+/.exec(textOf(signIn()[0]!.raw) ?? '')![0],
    );
    await page.getByRole('button', { name: 'Sign in' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/staff$/);
    await expect(page.getByRole('button', { name: 'Add a passkey' })).toBeHidden();
    await page.getByRole('button', { name: 'Move or cancel' }).first().focus();
    await page.keyboard.press('Enter');
    // The key starts the navigation, and does not wait for it.
    await expect(page).toHaveURL(/\/staff\?.*call=/);
    // At the call's heading, ringed where it hides no line.
    await expect(page.getByRole('heading', { name: /^Move .*’s call$/ })).toBeFocused();
    await expectRingClear(page);
    // A second tab on the same call's times, as a colleague's would be.
    const other = await context.newPage();
    await other.goto(page.url());
    await page.getByRole('radio').nth(1).focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Move the call' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').first()).toContainText('The call is moved');
    // The other tab's move, from times shown before this one: refused, and the call shown as it is,
    // the reason it typed still there; and through Later days too.
    const otherReason = other.getByLabel('Reason for the move (optional, told to the prospect)');
    await otherReason.fill('Ben takes it.');
    await other.getByRole('radio').nth(2).check();
    await other.getByRole('button', { name: 'Move the call' }).click();
    await expect(other.getByRole('status').first()).toContainText(
      'That call has been moved since this was shown',
    );
    await expect(otherReason).toHaveValue('Ben takes it.');
    await other.getByRole('button', { name: 'Later days' }).click();
    await expect(other).toHaveURL(/[?&]day=\d{4}-\d{2}-\d{2}/);
    await expect(otherReason).toHaveValue('Ben takes it.');
    await other.close();
    // A call chosen by its box, and the button that marks the chosen reached from it in two keys,
    // not past every card; posted without script.
    await page.getByRole('checkbox', { name: 'Choose Yan Prospect to mark handled' }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await expect(
      page
        .locator('li.staff-card', { hasText: 'Yan Prospect' })
        .getByRole('link', { name: 'To the chosen enquiries’ actions' }),
    ).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Mark the chosen handled' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').first()).toContainText(
      '1 of the 1 chosen marked handled',
    );
    await page.getByRole('button', { name: 'Mark handled' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('li.staff-card', { hasText: 'Zed Prospect' }).last()).toContainText(
      'Handled by Anna Reid',
    );
    // Signed in on a shared computer too: signed out there, from here, by keyboard alone.
    await page.getByRole('button', { name: 'Sign out on every other device' }).focus();
    await page.keyboard.press('Enter');
    await expect(
      page.getByText('You are signed out on every other device and browser'),
    ).toBeVisible();
  } finally {
    await context.close();
    await server.stop();
    await smtp.close();
  }
});

/** Where each of `parts` of a line is shown: the left and right of its first and last character. */
const placesIn = (line: Locator, parts: string[]) =>
  line.evaluate((element, needles) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const nodes: Text[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
    const box = (node: Text, at: number) => {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      return range.getBoundingClientRect();
    };
    return needles.map((needle) => {
      const node = nodes.find((text) => text.data.includes(needle))!;
      const at = node.data.indexOf(needle);
      const [first, last] = [box(node, at), box(node, at + needle.length - 1)];
      return {
        first: first.left,
        last: last.left,
        left: Math.min(first.left, last.left),
        right: Math.max(first.right, last.right),
      };
    });
  }, parts);

test('a right-to-left override or a Hebrew name in an enquiry reorders nothing on the desk: the address and the date read in order', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { server, smtp } = await startMailingSite();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  try {
    const people = [
      { first_name: 'Zelda \u202Eevil', last_name: 'Prospect', email: 'zelda@example.com' },
      // A name of strong right-to-left letters beside an address that starts with a digit: without
      // isolation, the '<' between them would be drawn on the far side of the name.
      {
        first_name: '\u05e9\u05dc\u05d5\u05dd',
        last_name: '\u05db\u05d4\u05df',
        email: '1shalom@example.com',
      },
    ];
    for (const person of people)
      expect(
        (
          await postForm(`${server.url}/php/email.php`, {
            ...person,
            contact: '+44 20 7946 0000',
            service: 'Web Development',
            project: 'A booking platform.',
            idempotency_key: crypto.randomUUID(),
          })
        ).status,
      ).toBe(200);
    await page.goto(`${server.url}/staff/sign-in`);
    await page.getByLabel('Work e-mail').fill('anna@northgate-digital.example');
    await page.getByRole('button', { name: 'E-mail me a link' }).click();
    const mails = () =>
      smtp.received.filter((mail) => mail.raw.includes('@staff-sign-in.invalid>'));
    await expect.poll(() => mails().length, { timeout: 10_000 }).toBe(1);
    await page.goto(
      /http:\/\/\S+\/staff\/sign-in\?token=\S+/.exec(textOf(mails()[0]!.raw) ?? '')![0],
    );
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/staff$/);
    await page.getByRole('link', { name: 'All enquiries' }).click();
    for (const { email } of people) {
      const card = page.locator('li', { hasText: email });
      const line = card.locator('.staff-card__head');
      const [name, open, address] = await placesIn(line, [
        email === 'zelda@example.com' ? 'Zelda' : '\u05e9\u05dc\u05d5\u05dd',
        '<',
        email,
      ]);
      // Left to right, as written: the name, then <address>, each in its order; then the date.
      expect(name!.right).toBeLessThanOrEqual(open!.left + 1);
      expect(open!.right).toBeLessThanOrEqual(address!.left + 1);
      expect(address!.first).toBeLessThan(address!.last);
      const meta = card.locator('.staff-card__meta');
      const date = /\d{1,2} \w{3} \d{4}, \d{2}:\d{2}/.exec((await meta.textContent())!)![0];
      const [when] = await placesIn(meta, [date]);
      expect(when!.first).toBeLessThan(when!.last);
    }
  } finally {
    await context.close();
    await server.stop();
    await smtp.close();
  }
});

/**
 * A server of its own with Anna signed in (her session as the sign-in keeps it) in a new browser
 * context: the store to arrange the desk, and `close()` for all three.
 */
async function annasDesk(
  browser: Browser,
  env: Record<string, string> = {},
  contextOptions: BrowserContextOptions = {},
) {
  const port = await freePort();
  const server = await startServer({
    PORT: String(port),
    SITE_URL: `http://127.0.0.1:${port}`,
    STAFF_SECRET: 'staff-test-secret-0123456789abcdef0123',
    ...env,
  });
  const store = await openStore(readConfig({ ENQUIRY_DB: server.database }));
  const context = await browser.newContext(contextOptions);
  const token = 'a'.repeat(43);
  await store.staff.startSession(storedHash(token), 'anna@northgate-digital.example', Date.now());
  await context.addCookies([{ name: 'staff', value: token, url: server.url }]);
  return {
    server,
    store,
    context,
    async close() {
      await context.close();
      await store.close();
      await server.stop();
    },
  };
}

test('Held and No-show say which is in effect, to a screen reader and by look', async ({
  browser,
}) => {
  const desk = await annasDesk(browser, {
    BOOKING_SECRET: 'e2e-staff-secret-0123456789abcdef0123',
  });
  const { server, store, context } = desk;
  try {
    // A call that took place yesterday.
    const start = new Date(Math.floor((Date.now() - 86_400_000) / 60_000) * 60_000)
      .toISOString()
      .replace('.000Z', 'Z');
    const end = new Date(Date.parse(start) + 1_800_000).toISOString().replace('.000Z', 'Z');
    await store.transaction((tx) =>
      tx.insertEnquiry(
        call(start, { name: 'Pia Past', call: { start, end, confirmed: true } }),
        'anna',
        Date.parse(start) - 86_400_000,
        [],
      ),
    );
    const page = await context.newPage();
    await page.goto(`${server.url}/staff?state=past`);
    const card = page.locator('li.staff-card', { hasText: 'Pia Past' });
    const held = card.getByRole('button', { name: 'Held', exact: true });
    const noShow = card.getByRole('button', { name: 'No-show', exact: true });
    // Neither yet: both toggle buttons, neither pressed.
    await expect(held).toHaveAttribute('aria-pressed', 'false');
    await expect(noShow).toHaveAttribute('aria-pressed', 'false');
    await held.click();
    await expect(card.getByRole('status')).toContainText('The call is marked held');
    await expect(card.getByRole('button', { name: 'Held', pressed: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'No-show', pressed: false })).toBeVisible();
    const fill = (button: Locator) => button.evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(await fill(held)).not.toBe(await fill(noShow));
    expect(await violations(page)).toEqual([]);
    await noShow.click();
    await expect(card.getByRole('status')).toContainText('The call is marked a no-show');
    await expect(card.getByRole('button', { name: 'No-show', pressed: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Held', pressed: false })).toBeVisible();
    await card.getByRole('button', { name: 'Unmark' }).click();
    await expect(card.getByRole('status')).toContainText('no longer marked');
    await expect(held).toHaveAttribute('aria-pressed', 'false');
    await expect(noShow).toHaveAttribute('aria-pressed', 'false');

    // Ben marks it held while Anna's page still shows it unmarked; her No-show, by keyboard,
    // keeps his mark: said at the top, the focus there, his Held shown pressed below.
    const id = (await card.getAttribute('id'))!.replace('enquiry-', '');
    const marked = { shown: null, to: 'held' } as const;
    expect(
      await store.desk.markOutcome(id, marked, 'ben@northgate-digital.example', Date.now()),
    ).toBe(true);
    await noShow.focus();
    await page.keyboard.press('Enter');
    const said = page.getByRole('status').filter({ hasText: 'Ben Okafor marked the call held' });
    await expect(said).toBeFocused();
    await expect(said).toContainText('nothing changed');
    await expect(card.getByRole('button', { name: 'Held', pressed: true })).toBeVisible();
    // Pressed again from this page, which shows Ben's mark: Anna's No-show is made.
    await noShow.click();
    await expect(card.getByRole('status')).toContainText('The call is marked a no-show');
  } finally {
    await desk.close();
  }
});

test('a refusal is a staff page: axe finds nothing, and the keyboard takes the member back to the desk', async ({
  browser,
}) => {
  // Editing off: Publishing is not on this site, and says so.
  const desk = await annasDesk(browser, {}, { viewport: { width: 375, height: 800 } });
  const { server, context } = desk;
  try {
    const page = await context.newPage();
    const answer = await page.goto(`${server.url}/staff/publish`);
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Publishing is off on this site',
    );
    expect(await violations(page)).toEqual([]);
    const back = page.getByRole('link', { name: 'Back to the desk' });
    for (let tab = 0; tab < 6 && !(await back.evaluate((a) => a === document.activeElement)); tab++)
      await page.keyboard.press('Tab');
    await expect(back).toBeFocused();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/staff`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Desk');
  } finally {
    await desk.close();
  }
});

test('with its store out of reach, the desk is a staff page that says so: axe finds nothing, and the keyboard reaches Try again', async ({
  browser,
}) => {
  // A PostgreSQL address where nothing answers.
  const server = await startServer({
    DATABASE_URL: `postgres://desk:unreachable-s3cret@localhost:${await freePort()}/agency`,
    STAFF_SECRET: 'staff-test-secret-0123456789abcdef0123',
  });
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  try {
    const page = await context.newPage();
    expect((await page.goto(`${server.url}/staff`))?.status()).toBe(503);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'The desk cannot be opened right now',
    );
    await expect(page.getByRole('main')).toContainText('Nothing prospects sent is lost');
    expect(await violations(page)).toEqual([]);
    const again = page.getByRole('link', { name: 'Try again' });
    for (
      let tab = 0;
      tab < 6 && !(await again.evaluate((a) => a === document.activeElement));
      tab++
    )
      await page.keyboard.press('Tab');
    await expect(again).toBeFocused();
    const asked = page.waitForResponse(`${server.url}/staff`);
    await page.keyboard.press('Enter');
    expect((await asked).status()).toBe(503);
  } finally {
    await context.close();
    await server.stop();
  }
});

test('with its store out of reach, Sign in with a passkey says signing in is not possible right now, focused', async ({
  browser,
}) => {
  const secret = { STAFF_SECRET: 'staff-test-secret-0123456789abcdef0123' };
  const [down, up] = await Promise.all([
    startServer({
      DATABASE_URL: `postgres://desk:unreachable-s3cret@localhost:${await freePort()}/agency`,
      ...secret,
    }),
    startServer(secret),
  ]);
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  try {
    const page = await context.newPage();
    // The sign-in page as opened while the store answered (the same build's); its button's steps
    // are then posted to the site whose store is out of reach.
    await page.route(`${down.url}/staff/sign-in`, async (route) =>
      route.fulfill({ response: await route.fetch({ url: `${up.url}/staff/sign-in` }) }),
    );
    await page.goto(`${down.url}/staff/sign-in`);
    const step = page.waitForResponse(`${down.url}/staff/passkey`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    expect((await step).status()).toBe(503);
    const said = page.getByRole('status').filter({ hasText: 'Signing in' });
    await expect(said).toHaveText(
      'Signing in is not possible right now. The site cannot reach its store, which keeps the staff’s sign-ins. Try again in a minute. If this lasts, tell whoever runs the site.',
    );
    await expect(said).toBeFocused();
  } finally {
    await context.close();
    await Promise.all([down.stop(), up.stop()]);
  }
});
