import { expect, type Page } from '@playwright/test';
import { test } from './shared-page';
import { islandHydrated, openCallRequest } from './helpers';

async function fillEnquiry(page: Page) {
  await page.getByRole('main').getByLabel('First name').fill('Grace');
  await page.getByRole('main').getByLabel('Last name').fill('Hopper');
  await page.getByRole('main').getByLabel('Email').fill('grace@example.com');
  await page.getByRole('main').getByLabel('Phone number').fill('+44 20 7946 0958');
  await page.getByRole('checkbox', { name: 'Web Development' }).check();
  await page.getByRole('checkbox', { name: 'Technical Consultancy' }).check();
  await page
    .getByRole('main')
    .getByLabel('About your project')
    .fill('A booking platform for 12 clinics.');
}

/** Fills the form once its island has taken it over (until then it posts natively, by design). */
async function fillEnquiryHydrated(page: Page) {
  await fillEnquiry(page);
  await islandHydrated(page.getByRole('button', { name: 'Send enquiry' }));
}

test.describe('the enquiry form', () => {
  test('sends an enquiry and goes to the thank-you page', async ({ page }) => {
    await page.goto('/contact');
    await fillEnquiryHydrated(page);
    const posted = page.waitForRequest(
      (r) => r.url().endsWith('/php/email.php') && r.method() === 'POST',
    );
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    const request = await posted;
    expect(request.headers()['accept']).toContain('application/json');
    await expect(page).toHaveURL(/\/thankyou$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank You!');
  });

  test('needs only the names and an e-mail address: the phone and the services are optional', async ({
    page,
  }) => {
    await page.goto('/contact');
    const main = page.getByRole('main');
    await main.getByLabel('First name').fill('Grace');
    await main.getByLabel('Last name').fill('Hopper');
    await main.getByLabel('Email').fill('grace@example.com');
    await expect(main.getByLabel('Phone number (optional)')).toBeVisible();
    await expect(main.getByRole('group', { name: /services .*\(optional\)/ })).toBeVisible();
    await islandHydrated(page.getByRole('button', { name: 'Send enquiry' }));
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    await expect(page).toHaveURL(/\/thankyou$/);
  });

  test('shows what is wrong: a summary that takes focus and links to each field, and a message under it', async ({
    page,
  }) => {
    await page.goto('/contact');
    await page.getByRole('main').getByLabel('Email').fill('grace@');
    await page.getByRole('main').getByLabel('Phone number').fill('12 34');
    await islandHydrated(page.getByRole('button', { name: 'Send enquiry' }));
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    const summary = page.locator('.error-summary');
    await expect(summary).toBeFocused();
    await expect(summary.getByRole('heading')).toHaveText('There is a problem');
    await expect(summary.getByRole('link')).toHaveText([
      'Enter your first name',
      'Enter your last name',
      'Enter an email address in the correct format, like name@example.com',
      'Enter a phone number of 7 to 15 digits, like +44 20 7946 0958',
    ]);
    await expect(page.locator('#email-error')).toHaveText(
      'Enter an email address in the correct format, like name@example.com',
    );
    await expect(page.getByRole('main').getByLabel('Email')).toHaveAttribute(
      'aria-describedby',
      'email-error',
    );
    // Each field with a mistake is outlined in its message's red, a text box as a text area; the
    // others are not (the inputs' own border once outranked the red, and only the area had it).
    const red = await page.locator('#email-error').evaluate((el) => getComputedStyle(el).color);
    const border = (label: string) =>
      page
        .getByRole('main')
        .getByLabel(label)
        .evaluate((el) => getComputedStyle(el).borderTopColor);
    for (const label of ['First name', 'Last name', 'Email', 'Phone number'])
      expect(await border(label), label).toBe(red);
    expect(await border('About your project')).not.toBe(red);
    await summary
      .getByRole('link', { name: 'Enter a phone number of 7 to 15 digits, like +44 20 7946 0958' })
      .click();
    await expect(page.getByRole('main').getByLabel('Phone number')).toBeFocused();
    expect(page.url()).toMatch(/\/contact$/);
  });

  test('says how long a brief may be, and keeps a longer one whole, said to be too long, not cut short', async ({
    page,
  }) => {
    await page.goto('/contact');
    const project = page.getByRole('main').getByLabel('About your project');
    await expect(project).toHaveAccessibleDescription('Up to 5,000 characters.');
    await fillEnquiryHydrated(page);
    // A pasted brief of 6,000 characters: a maxlength cut it at 5,000 without a word.
    const brief = 'A booking platform for 12 clinics. '.repeat(172).slice(0, 6000);
    await project.fill(brief);
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    await expect(page.locator('#project-error')).toHaveText(
      'Project details must be 5,000 characters or fewer',
    );
    await expect(project).toHaveValue(brief);
    await expect(project).toHaveAccessibleDescription(
      /^Up to 5,000 characters\. .*Project details must be 5,000 characters or fewer$/,
    );
  });

  test("shows the server's field errors in their slots", async ({ page }) => {
    await page.goto('/contact');
    await fillEnquiryHydrated(page);
    await page.route('**/php/email.php', (route) =>
      route.fulfill({
        status: 422,
        contentType: 'application/json',
        body: JSON.stringify({
          errors: { email: 'That address bounced', captcha: 'Confirm that you are not a robot' },
        }),
      }),
    );
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    await expect(page.locator('#email-error')).toHaveText('That address bounced');
    await expect(page.locator('#captcha-error')).toHaveText('Confirm that you are not a robot');
    await expect(page.locator('.error-summary')).toBeFocused();
    // Beside a field whose message takes a line, a field without one keeps its box: the same top and
    // height (it was stretched down to the message's line).
    // Both read in one frame: the page may still be scrolling to the focused summary.
    const [email, phone] = await page.evaluate(() =>
      ['email', 'contact'].map((name) => {
        const { top, height } = document
          .querySelector(`main [name="${name}"]`)!
          .getBoundingClientRect();
        return { top, height };
      }),
    );
    expect(phone!.top).toBe(email!.top);
    expect(Math.abs(phone!.height - email!.height)).toBeLessThanOrEqual(2);
  });

  // A post that does not reach the server at all is kept on the device instead: offline.spec.ts.
  test('when the server fails, it says so, logs the error and keeps what was typed', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const keys: string[] = [];
    // The form's posts only (leaving the page also posts its field data, which carries no key).
    page.on('request', (r) => {
      if (r.method() !== 'POST' || !r.url().endsWith('/php/email.php')) return;
      const key = /name="idempotency_key"\r\n\r\n([^\r]*)/.exec(r.postData() ?? '')?.[1];
      keys.push(key ?? 'none');
    });
    await page.goto('/contact');
    await fillEnquiryHydrated(page);
    await page.route('**/php/email.php', (route) => route.fulfill({ status: 500, body: 'oops' }));
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    const failure = page.locator('.form__failure');
    await expect(failure).toBeVisible();
    await expect(failure).toContainText('could not be sent');
    await expect(failure).toBeFocused();
    expect(errors.some((text) => text.includes('Error submitting form'))).toBe(true);
    expect(page.url()).toMatch(/\/contact$/);
    await expect(page.getByRole('main').getByLabel('First name')).toHaveValue('Grace');
    await expect(page.getByRole('main').getByLabel('About your project')).toHaveValue(
      'A booking platform for 12 clinics.',
    );
    await expect(page.getByRole('checkbox', { name: 'Technical Consultancy' })).toBeChecked();
    // It can be sent again once the connection is back.
    await page.unroute('**/php/email.php');
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    await expect(page).toHaveURL(/\/thankyou$/);
    // Both attempts were one submission: they carried the same key, made on the device.
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});

test.describe('the Schedule a Call modal', () => {
  test('sends a call request and goes to the thank-you page', async ({ page }) => {
    await page.goto('/iphone');
    const dialog = await openCallRequest(page);
    await dialog.getByRole('button', { name: 'Request a call' }).click();
    await expect(page).toHaveURL(/\/thankyou$/);
  });

  test('keeps a message longer than it takes whole, said to be too long, not cut short', async ({
    page,
  }) => {
    await page.goto('/iphone');
    const message = 'Can we talk about an iPad app next week? '.repeat(150).slice(0, 5200);
    const dialog = await openCallRequest(page, { message });
    await dialog.getByRole('button', { name: 'Request a call' }).click();
    await expect(
      dialog.getByText('Message must be 5,000 characters or fewer.').last(),
    ).toBeVisible();
    await expect(dialog.getByLabel('Message')).toHaveValue(message);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  // One page for both posts (a context for each cost more than the check), each a step.
  test('an enquiry posts natively and lands on the thank-you page; one with mistakes gets the form back with a summary, its messages and what was typed', async ({
    page,
  }) => {
    await test.step('an enquiry posts natively and lands on the thank-you page', async () => {
      await page.goto('/contact');
      await fillEnquiry(page);
      await page.getByRole('button', { name: 'Send enquiry' }).click();
      await expect(page).toHaveURL(/\/thankyou$/);
      await expect(page.getByText('Our team is in touch with you soon!')).toBeVisible();
    });
    await test.step('a post with mistakes gets the form back with a summary, its messages and what was typed', async () => {
      await page.goto('/contact');
      await page.getByRole('main').getByLabel('First name').fill('Grace');
      await page.getByRole('main').getByLabel('Email').fill('not-an-email');
      await page
        .getByRole('main')
        .getByLabel('About your project')
        .fill('<script>alert(1)</script> & more');
      const response = page.waitForResponse((r) => r.url().endsWith('/php/email.php'));
      await page.getByRole('button', { name: 'Send enquiry' }).click();
      expect((await response).status()).toBe(422);
      const summary = page.locator('.error-summary');
      await expect(summary.getByRole('heading')).toHaveText('There is a problem');
      await expect(summary.getByRole('link', { name: 'Enter your last name' })).toHaveAttribute(
        'href',
        '#last_name',
      );
      await expect(page.locator('#email-error')).toBeVisible();
      await expect(page.getByRole('main').getByLabel('First name')).toHaveValue('Grace');
      await expect(page.getByRole('main').getByLabel('Email')).toHaveValue('not-an-email');
      await expect(page.getByRole('main').getByLabel('About your project')).toHaveValue(
        '<script>alert(1)</script> & more',
      );
      await expect(page.getByRole('link', { name: 'Back to the contact page' })).toHaveAttribute(
        'href',
        '/contact',
      );

      // Corrected, it goes through.
      await page.getByRole('main').getByLabel('Last name').fill('Hopper');
      await page.getByRole('main').getByLabel('Email').fill('grace@example.com');
      await page.getByRole('main').getByLabel('Phone number').fill('020 7946 0958');
      await page.getByRole('checkbox', { name: 'Other Services' }).check();
      await page.getByRole('button', { name: 'Send enquiry' }).click();
      await expect(page).toHaveURL(/\/thankyou$/);
    });
  });

  test('a native call request gets its errors as a page, and a valid one is redirected', async ({
    request,
  }) => {
    const invalid = await request.post('/send-mail.php', {
      form: { Fname: '', email: 'x', message: '' },
      maxRedirects: 0,
    });
    expect(invalid.status()).toBe(422);
    const html = await invalid.text();
    for (const message of [
      'There is a problem',
      'Name is required.',
      'Valid email is required.',
      'Please,leave us a message.',
    ]) {
      expect(html).toContain(message);
    }
    const valid = await request.post('/send-mail.php', {
      form: { Fname: 'Ada', email: 'ada@example.com', message: 'Please call me.' },
      maxRedirects: 0,
    });
    expect(valid.status()).toBe(303);
    expect(valid.headers()['location']).toBe('/thankyou');
  });
});
