import { expect, test as setup } from '@playwright/test';

setup('the editor has loaded once on the dev server', async ({ page }) => {
  await page.goto('/keystatic/collection/services/item/iphone');
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
});
