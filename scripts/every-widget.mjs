// Every widget of a page used once, as a visitor who tries everything would: what `npm run size` and
// the size test (tests/e2e/size.spec.ts) count as everything a page can load.

/** Scrolls to the bottom and uses each widget the page has; a page without one skips it. */
export async function useEverything(page) {
  // Scroll to the bottom in steps, so that every client:visible island hydrates.
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 400) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 60));
    }
  });
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) {
    await menu.click();
    await page.keyboard.press('Escape');
  }
  await page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Request a call' }).click();
  await page.keyboard.press('Escape');
  const project = page.locator('.gallery__link').first();
  if (await project.count()) {
    await page.getByRole('radio', { name: 'Apps' }).check();
    await page.getByRole('radio', { name: 'All projects' }).check();
    await project.click();
    await page.keyboard.press('Escape');
  }
  const enquiry = page.locator('form.enquiry-form input[name="first_name"]');
  if (await enquiry.count()) await enquiry.focus();
  const tab = page.getByRole('tab', { name: 'Backend' });
  if (await tab.count()) await tab.click();
}
