import { expect } from '@playwright/test';
import { expectOutlined } from './contrast';
import { expectAccessible, violations, islandHydrated, scrollIntoViewToStay } from './helpers';
import { test } from './shared-page';

test.describe('axe finds no violations', () => {
  // Every route of the site, and the page of an unknown address, are checked where routes.spec.ts
  // loads them for their content (expectAccessible): each is loaded once for both. Here, the pages in
  // the states a visitor puts them in.
  test('on /speed (an on-demand page, so not among routes.spec.ts’s)', async ({
    sharedPage: page,
  }) => {
    await page.goto('/speed');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('How fast is this site?');
    await expectAccessible(page);
  });

  // With the mobile menu open: in first-tap.spec.ts, which opens it by a tap before the code arrives.

  // With the modal open showing its errors: in the outline test of the dialog below, which opens it.

  // One load of the portfolio in each state in turn (a context for each cost more than the check):
  // the lightbox open, then closed and each filter chosen.
  test('on the portfolio with the lightbox open, and filtered to each of its filters', async ({
    page,
  }) => {
    await page.goto('/portfolio');
    await page.locator('.gallery__link').first().click();
    const lightbox = page.locator('dialog.lightbox');
    await expect(lightbox).toBeVisible();
    expect(await violations(page), 'with the lightbox open').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(lightbox).toBeHidden();
    for (const filter of ['Websites', 'Apps', 'Social-media']) {
      await test.step(`with the portfolio filtered to ${filter}`, async () => {
        await page.getByRole('radio', { name: filter }).check();
        await expect(page.getByRole('radio', { name: filter })).toBeChecked();
        expect(await violations(page), filter).toEqual([]);
      });
    }
  });

  test('with the carousels running', async ({ page }) => {
    await page.goto('/');
    for (const name of ['Portfolio', 'Customer feedback']) {
      const carousel = page.getByRole('region', { name });
      await scrollIntoViewToStay(carousel);
      await expect(carousel).toHaveClass(/carousel--ready/, { timeout: 15_000 });
    }
    expect(await violations(page)).toEqual([]);
  });
});

test.describe('form fields are outlined at 3:1 or more against what is in and around them', () => {
  // The desk's other pages are checked on the way through a host's morning (staff.spec.ts).
  for (const route of ['/contact', '/schedule', '/staff/sign-in']) {
    test(`on ${route}`, async ({ sharedPage: page }) => {
      await page.goto(route);
      await expectOutlined(page);
    });
  }

  // The dialog's outlines as it opens, then axe on it showing its errors: one page for both (a
  // context for each cost more than the check).
  test('in the Schedule a Call dialog; and axe finds no violations with the modal open showing its errors', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule a Call' });
    await expect(dialog).toBeVisible();
    await expectOutlined(page);
    await test.step('axe finds no violations with the modal open showing its errors', async () => {
      await islandHydrated(dialog.getByRole('button', { name: 'Request a call' }));
      await dialog.getByRole('button', { name: 'Request a call' }).click();
      await expect(dialog.locator('.field__error')).toHaveCount(3);
      expect(await violations(page)).toEqual([]);
    });
  });
});
