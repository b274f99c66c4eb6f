import { expect, test as setup } from '@playwright/test';

setup('the editor has loaded once on each dev server', async ({ browser }, { project }) => {
  await Promise.all(
    (project.metadata.origins as string[]).map(async (origin) => {
      const page = await browser.newPage({ baseURL: origin });
      await page.goto('/keystatic/collection/services/item/iphone');
      await expect(page.getByRole('button', { name: 'Save' })).toBeVisible({ timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      await page.close();
    }),
  );
});
