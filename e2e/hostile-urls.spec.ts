import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { createAdmin, signIn, uniqueEmail } from './support.ts';

/**
 * Every page of the app, opened from a link a careless or hostile sender wrote: each query
 * parameter the pages read, and each path parameter, given text no form would send. A page may
 * say the link is wrong, or show what it shows without it; it must not fail ("Something went
 * wrong") or throw in the browser. The pages come from the router's source, so a new page is
 * opened too.
 */

const ROUTES = [
  ...readFileSync('packages/web/src/app/router.tsx', 'utf8').matchAll(/path: '(\/[^']*)'/g),
].map((match) => match[1] as string);

/** The query parameters the pages read (searchParams.get), each given the same text. */
const QUERY = ['page', 'state', 'msa', 'hospital', 'email', 'Email', 'token', 'Token', 'code'];

/** Names every object has, JSON that would set one, and text no field holds. */
const HOSTILE = ['constructor', '{"__proto__":{"role":"admin"}}', 'x'.repeat(3_000)];

/** What failed when `url` was opened: errors thrown in the page, and the error page. */
async function failuresOf(page: Page, url: string): Promise<string[]> {
  const thrown: string[] = [];
  const listener = (error: Error) => thrown.push(error.message);
  page.on('pageerror', listener);
  try {
    await page.goto(url, { waitUntil: 'networkidle' });
    const failed = await page.getByRole('heading', { name: 'Something went wrong' }).count();
    return [...thrown, ...(failed > 0 ? ['the error page'] : [])].map((f) => `${url}: ${f}`);
  } finally {
    page.off('pageerror', listener);
  }
}

function urls(): string[] {
  return ROUTES.filter((route) => route !== '*' && route !== '/logout').flatMap((route) =>
    HOSTILE.map((text) => {
      const value = encodeURIComponent(text);
      const path = route.replace(/:\w+/g, value);
      return `${path}?${QUERY.map((name) => `${name}=${value}`).join('&')}`;
    }),
  );
}

test.describe('every page, opened with hostile links', () => {
  test.setTimeout(240_000);

  test('signed out: no page fails or throws', async ({ page }) => {
    expect(ROUTES.length).toBeGreaterThan(25);
    const failures: string[] = [];
    for (const url of urls()) failures.push(...(await failuresOf(page, url)));
    expect(failures).toEqual([]);
  });

  test('signed in as an administrator: no page fails or throws', async ({ page }) => {
    const email = uniqueEmail('hostile-admin');
    await createAdmin(email);
    await signIn(page, email);
    const failures: string[] = [];
    for (const url of urls()) failures.push(...(await failuresOf(page, url)));
    expect(failures).toEqual([]);
  });
});
