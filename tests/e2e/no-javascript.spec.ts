import { expect } from '@playwright/test';
import sharp from 'sharp';
import { test } from './shared-page';

test.use({ javaScriptEnabled: false });

test.describe('without JavaScript', () => {
  // The pages as they are looked at, in one page in turn (a context for each cost more than the
  // checks): each check is a step of its own, with its own load; the phone's width comes last.
  test('the menu, Schedule a Call, the portfolio, the carousels, the stack and the enquiry form', async ({
    page,
    request,
  }) => {
    await test.step("'Schedule a Call' is a link to /schedule, which lists the free times", async () => {
      await page.goto('/reactjs');
      await page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }).click();
      await expect(page).toHaveURL(/\/schedule$/);
      await expect(page.getByRole('group', { name: 'Time for the call' })).toBeVisible();
    });
    await test.step('the portfolio shows every project, links each image to its full size, and still filters', async () => {
      await page.goto('/portfolio');
      const items = page.locator('.gallery__item:visible');
      await expect(items).toHaveCount(10);
      for (const link of await items.getByRole('link').all()) {
        // The first project's drawing as it is (in view as the page opens); the others at their
        // widest, the last of their widths.
        const href = await link.getAttribute('href');
        expect(href).toMatch(/\.(svg|webp)$/);
        const image = await request.get(href!);
        expect(image.status()).toBe(200);
        if (href!.endsWith('.webp')) {
          const srcset = await link.locator('img').getAttribute('srcset');
          const widest = new RegExp(`${href!.replaceAll('.', '\\.')} (\\d+)w$`).exec(srcset!);
          expect(widest, srcset!).not.toBeNull();
          // Enough for a 2x screen's widest column (640 px, half of 1280), and as wide as it says:
          // a drawing is drawn at that width, not enlarged (src/lib/image-service.ts).
          expect(Number(widest![1])).toBeGreaterThanOrEqual(1280);
          const { width } = await sharp(await image.body()).metadata();
          expect(width).toBe(Number(widest![1]));
        }
      }
      await page.getByRole('radio', { name: 'Apps' }).check();
      await expect(items).toHaveCount(4);
    });
    await test.step('carousels are horizontally scrollable lists of every slide', async () => {
      await page.goto('/');
      for (const name of ['Portfolio', 'Customer feedback']) {
        const carousel = page.getByRole('region', { name });
        const viewport = carousel.locator('.carousel__viewport');
        await carousel.scrollIntoViewIfNeeded();
        await expect(carousel.getByRole('group')).toHaveCount(4);
        expect(await viewport.evaluate((v) => getComputedStyle(v).overflowX)).toBe('auto');
        expect(await viewport.evaluate((v) => v.scrollWidth > v.clientWidth)).toBe(true);
        await viewport.evaluate((v) => v.scrollBy(10_000, 0));
        await expect(carousel.getByRole('group').last()).toBeInViewport();
        // No controls that could not work.
        await expect(carousel.getByRole('button')).toHaveCount(0);
      }
    });
    await test.step('the technology stack shows all three groups', async () => {
      await page.goto('/about');
      for (const name of ['Mobile', 'Backend', 'Frontend']) {
        await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
      }
      await expect(page.getByRole('tablist')).toBeHidden();
      await expect(page.locator('.stack-tabs a[href="/laravel"]')).toBeVisible();
    });
    // The enquiry form posts natively: below, on its way to a post.
    await test.step('the menu links can be reached on a phone', async () => {
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto('/iphone');
      await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const name of ['Home', 'About', 'Services', 'Portfolio', 'Contact']) {
        await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
      }
      await nav.getByRole('link', { name: 'Services' }).click();
      await expect(page).toHaveURL(/\/service$/);
    });
  });

  test('the enquiry form posts natively; shown again after a mistake, it carries an idempotency key for its next post', async ({
    page,
  }) => {
    const keys: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'POST') return;
      keys.push(/name="idempotency_key"\r\n\r\n([^\r]*)/.exec(r.postData() ?? '')?.[1] ?? 'none');
    });
    await page.goto('/contact');
    const form = page.locator('form.enquiry-form');
    await expect(form).toHaveAttribute('method', 'post');
    await expect(form).toHaveAttribute('action', '/php/email.php');
    const main = page.getByRole('main');
    await main.getByLabel('First name').fill('Grace');
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    await expect(page.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
    await main.getByLabel('Last name').fill('Hopper');
    await main.getByLabel('Email').fill('grace@example.com');
    await main.getByLabel('Phone number').fill('+44 20 7946 0958');
    await page.getByRole('checkbox', { name: 'Web Development' }).check();
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    await expect(page).toHaveURL(/\/thankyou$/);
    // The static page has no key to give (it would be everyone's); the server's answer does.
    expect(keys[0]).toBe('');
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
