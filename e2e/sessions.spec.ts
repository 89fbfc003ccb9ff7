import { expect, test } from '@playwright/test';
import { signUp, uniqueEmail } from './support.ts';

test.describe('sessions', () => {
  test('a page reloaded while its refresh is under way keeps the person signed in', async ({
    page,
  }) => {
    await signUp(page, uniqueEmail('reload'));
    await page.goto('/profile');
    await expect(page.getByText('Email address is not verified')).toBeVisible();
    // Each page load rotates the refresh token once; let this page's land first.
    await page.waitForLoadState('networkidle');

    // The next page's refresh reaches the server, which rotates the token, but its answer never
    // reaches the page: the person reloads again meanwhile (two reloads 100 ms apart did this).
    let rotated: () => void = () => undefined;
    const atServer = new Promise<void>((resolve) => (rotated = resolve));
    await page.route(
      '**/api/auth/refreshToken',
      async (route) => {
        await route.fetch();
        rotated();
      },
      { times: 1 },
    );
    await page.reload();
    await atServer;

    // The page after it sends the token the server has just rotated.
    const refreshed = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/auth/refreshToken',
    );
    await page.reload();
    expect((await refreshed).status()).toBe(200);
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByText('Email address is not verified')).toBeVisible();
  });
});
