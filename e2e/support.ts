import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const PASSWORD = 'Sunny-Day-42!';

export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

/** Waits for an e-mail with this subject to reach the outbox, and returns the link it holds. */
export async function linkFromOutbox(
  request: APIRequestContext,
  to: string,
  subject: string,
): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/outbox.json?to=${encodeURIComponent(to)}`);
        const messages = (await response.json()) as OutboxMessage[];
        const message = messages.find((m) => m.subject === subject);
        link = message ? /https?:\/\/\S+/.exec(message.text)?.[0] : undefined;
        return link;
      },
      { message: `an e-mail "${subject}" to ${to}` },
    )
    .toBeTruthy();
  return link ?? '';
}

/**
 * No WCAG 2 A/AA violation on the page as it stands, once its CSS transitions have ended: a menu
 * still sliding in is drawn half transparent, and axe measured its colours' contrast then (a
 * colour-contrast violation in one CI run of the 375 px menu, which passed in the runs before).
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running',
      ),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary, 'axe violations').toEqual([]);
}

/** No sideways scrolling of the page itself: what a 375 px screen must not need. */
export async function expectNoPageOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Fills in and submits the sign-up form; the bot check solves itself in the page. */
export async function signUp(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/registration');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ }).check();
  const submit = page.getByRole('button', { name: /sign up/i });
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page).toHaveURL(/\/$/);
}

/** Signs out whoever is signed in (the sign-in screen sends a signed-in visitor to the profile), then signs in. */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await expect(page).toHaveURL(/\/$/);
}

const exec = promisify(execFile);

/** Makes an administrator with the real CLI against the browser tests' database. */
export async function createAdmin(email: string, password = PASSWORD): Promise<void> {
  await exec('npm', ['run', '-s', 'admin:create', '--', '--email', email, '--password', password], {
    env: { ...process.env, DATA_DIR: '.data-e2e' },
  });
}

/**
 * Ingests hospital files with the real CLI, in one run, into the browser tests' database: the JSON
 * line of figures it prints for each file, the last one apart, and whether it exited 0.
 */
export async function ingest(
  ...files: string[]
): Promise<{ ok: boolean; result: Record<string, unknown>; results: Record<string, unknown>[] }> {
  const printed = await exec('npm', ['run', '-s', 'ingest', '--', ...files], {
    // The tests' files are served on this machine (packages/ingest/src/read/address-guard.ts).
    env: { ...process.env, DATA_DIR: '.data-e2e', INGEST_PRIVATE_URLS: 'allow' },
  }).then(
    ({ stdout }) => ({ ok: true, stdout }),
    (error: { stdout?: string }) => ({ ok: false, stdout: error.stdout ?? '' }),
  );
  // One JSON line per file, after the progress output.
  const results = printed.stdout
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { ok: printed.ok, result: results.at(-1) ?? {}, results };
}

/** The auth headers of the session signed in on `page`, for calling the API as that user. */
export async function adminRequestHeaders(page: Page): Promise<Record<string, string>> {
  const { token, secret } = await page.evaluate(() => ({
    token: localStorage.getItem('token'),
    secret: localStorage.getItem('secret_key'),
  }));
  expect(token, 'a signed-in session on the page').toBeTruthy();
  return { Authorization: `Bearer ${token ?? ''}`, secret_key: secret ?? '' };
}
