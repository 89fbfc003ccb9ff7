import { expect, test } from '@playwright/test';
import {
  createAdmin,
  expectAccessible,
  expectNoPageOverflow,
  signIn,
  signUp,
  uniqueEmail,
} from './support.ts';

test.describe('headers and navigation', () => {
  test('signed out: sign-up and sign-in links, no Subscription, Rates or Vindex', async ({
    page,
  }) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Sign up for Rates/Try Vindex' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Sign In' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of [
      'Home',
      'Inventory List',
      'Rx Wholesaler',
      'Products & services',
      'Our Mission',
      'Our Partners',
    ]) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    for (const name of ['Subscription', 'Rates', 'Vindex'])
      await expect(nav.getByRole('link', { name, exact: true })).toHaveCount(0);
    await expect(page.getByText('Please create an account or login first')).toBeVisible();
    await expectAccessible(page);
    // The tab's icon is the build's own file.
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    const answer = await page.request.get(icon ?? '/favicon.ico');
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toContain('image/svg+xml');
  });

  test('signed in: Hello, name, Profile, Sign out and the full navigation', async ({ page }) => {
    const email = uniqueEmail('header');
    await signUp(page, email);
    const header = page.getByRole('banner');
    await expect(header.getByText(`Hello, ${email}`)).toBeVisible();
    await expect(header.getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Sign out' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of [
      'Home',
      'Inventory List',
      'Rx Wholesaler',
      'Products & services',
      'Subscription',
      'Rates',
      'Our Mission',
      'Our Partners',
      'Vindex',
    ]) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(header.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
    await expectAccessible(page);
  });

  test('a link to a screen of a later issue reaches the not-found page', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expectAccessible(page);
  });

  test('signed-in screens send a visitor without a session to sign in', async ({ page }) => {
    for (const path of ['/profile', '/verifyEmail', '/userList']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
  });

  test('the user list is for admins: a web user is refused, an admin sees the accounts', async ({
    page,
  }) => {
    const user = uniqueEmail('plain');
    await signUp(page, user);
    await page.goto('/userList');
    await expect(page.getByText('You do not have access to this page.')).toBeVisible();

    const admin = uniqueEmail('admin');
    await createAdmin(admin);
    await signIn(page, admin);
    await page.getByRole('link', { name: 'Users' }).first().click();
    await expect(page).toHaveURL(/\/userList$/);
    const table = page.getByRole('table');
    for (const column of ['First Name', 'Last Name', 'Email', 'Address', 'Zip', 'Last Login']) {
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
    }
    await expect(table.getByRole('cell', { name: user })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe('at 375 px wide', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the menu opens from a button and holds the navigation', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const nav = page.getByRole('dialog').getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Inventory List' })).toBeVisible();
    await expectAccessible(page);
  });

  test('the sign-up form fits without sideways scrolling', async ({ page }) => {
    await page.goto('/registration');
    await expectNoPageOverflow(page);
  });
});

// The page's Content-Security-Policy (docs/decisions/0020) must block nothing the app itself
// loads: the bot check's worker, Mantine's styles, the charts, the search, the public pages.
test('the page policy blocks nothing the app loads, signed out and signed in', async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${location.pathname}: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const violations: string[] = [];
  // What the document open in the page has reported so far (each page.goto opens a new one).
  const collect = async () =>
    violations.push(
      ...(await page.evaluate(
        () => (window as unknown as { cspViolations: string[] }).cspViolations,
      )),
    );
  const visit = async (url: string) => {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
    await collect();
  };
  const response = await page.goto('/');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  for (const url of [
    '/',
    '/inventoryList',
    '/ourMission',
    '/productandservices',
    '/useCases',
    '/partner',
    '/subscriptionview',
    '/privacy-policy',
    '/terms-condition',
    '/inventoryList?state=AK',
  ])
    await visit(url);
  await page.getByRole('link', { name: 'Demo Gastineau Channel Hospital' }).click();
  await expect(page.getByText('Where the dollar figure comes from')).toBeVisible();
  await collect();

  // Sign-up solves the bot check in a Worker, which the policy must allow.
  await signUp(page, uniqueEmail('csp'));
  await collect();
  for (const url of ['/', '/profile', '/subscription']) await visit(url);
  expect(violations).toEqual([]);
});
