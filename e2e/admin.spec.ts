import { expect, test } from '@playwright/test';
import {
  createAdmin,
  expectAccessible,
  expectNoPageOverflow,
  signIn,
  uniqueEmail,
} from './support.ts';

// A valid 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

test.describe('admin screens', () => {
  test('an admin reads contact messages and downloads an attachment', async ({ page, request }) => {
    const upload = await request.post('/api/Feedback/uploadfeedbackfile', {
      multipart: {
        File: {
          name: 'claims.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from('claim,code\n1,99213\n'),
        },
      },
    });
    const token = ((await upload.json()) as { message: string }).message;
    const subject = `Question ${Date.now() % 100000}`;
    const saved = await request.post('/api/Feedback/savefeedback', {
      data: {
        FirstName: 'Ada',
        LastName: 'Lovelace',
        email: 'ada@example.com',
        subject,
        message: 'Can you reprice these claims?',
        fileName: token,
      },
    });
    expect(saved.ok()).toBe(true);

    const admin = uniqueEmail('admin-msg');
    await createAdmin(admin);
    await signIn(page, admin);
    await page.getByRole('link', { name: 'Messages', exact: true }).first().click();
    await expect(page).toHaveURL(/\/admin\/feedback$/);
    await expect(page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: subject });
    await expect(row).toContainText('Ada Lovelace');
    await expect(row).toContainText('Can you reprice these claims?');
    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: /^Download / }).click();
    expect((await downloading).suggestedFilename()).toMatch(/claims.*\.csv$/);
    await expectAccessible(page);
  });

  test('an admin adds a partner that the partners page shows, then removes it', async ({
    page,
  }) => {
    const admin = uniqueEmail('admin-partner');
    await createAdmin(admin);
    await signIn(page, admin);
    await page.getByRole('link', { name: 'Partners', exact: true }).first().click();
    await expect(page).toHaveURL(/\/admin\/partners$/);
    await expect(page.getByRole('heading', { name: 'Partners', level: 1 })).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('textbox', { name: /^Name/ }).fill('Demo Benefits Partner');
    await page.getByRole('textbox', { name: /^Website/ }).fill('https://partner.example.com');
    await page
      .locator('input[type="file"][name="image"]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Add partner' }).click();
    await expect(page.getByText('Demo Benefits Partner was added.')).toBeVisible();

    await page.goto('/partner');
    const link = page.getByRole('link', { name: /Demo Benefits Partner/ });
    await expect(link).toHaveAttribute('href', 'https://partner.example.com');
    const image = link.getByRole('img');
    await expect(image).toHaveAttribute('src', /^\/api\/Partner\/image\//);
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(
      1,
    );

    await page.goto('/admin/partners');
    await page.getByRole('button', { name: 'Remove Demo Benefits Partner' }).click();
    await page
      .getByRole('dialog', { name: 'Remove partner' })
      .getByRole('button', { name: 'Yes, remove' })
      .click();
    await expect(page.getByText('Demo Benefits Partner was removed.')).toBeVisible();
    // The button pressed went with its row: the keyboard is at the notice, not on <body>.
    await expect(page.getByRole('status').filter({ hasText: 'was removed.' })).toBeFocused();
  });

  test('the admin header keeps each of its rows on one line and the catalogue breaks no word', async ({
    page,
  }) => {
    const admin = uniqueEmail('admin-layout');
    await createAdmin(admin);
    await signIn(page, admin);

    // The tops of a navigation's links: one distinct value when they sit on one line.
    const linkRows = (name: string) =>
      page
        .getByRole('navigation', { name })
        .first()
        .getByRole('link')
        .evaluateAll(
          (links) => new Set(links.map((link) => link.getBoundingClientRect().top)).size,
        );
    for (const width of [1024, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/admin/catalogue');
      await expect(page.getByRole('heading', { name: 'Plans', level: 2 })).toBeVisible();
      expect(await linkRows('Main'), `main navigation at ${width} px`).toBe(1);
      expect(await linkRows('Administration'), `admin navigation at ${width} px`).toBe(1);
    }

    // At 1,024 px no one-word cell of the plans table ('Offered', 'Negotiable') is split.
    await page.setViewportSize({ width: 1024, height: 900 });
    const plans = page.getByRole('region', { name: 'Plans table' });
    await expect(plans.getByRole('cell', { name: 'Offered' }).first()).toBeVisible();
    const split = await plans.getByRole('cell').evaluateAll((cells) =>
      cells
        // Text cells only: a button's own boxes sit at other heights than its label.
        .filter((cell) => !cell.querySelector('button') && /^\S+$/.test(cell.textContent ?? ''))
        .filter((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return (
            new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size > 1
          );
        })
        .map((cell) => cell.textContent),
    );
    expect(split).toEqual([]);
    await expectAccessible(page);
  });

  test('an admin sees, above the files that could not be read, how the daily refresh goes', async ({
    page,
  }) => {
    const admin = uniqueEmail('admin-files');
    await createAdmin(admin);
    // The page's own clock, to see the section ask again without waiting a minute for it.
    await page.clock.install();
    await signIn(page, admin);
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Files' })
      .click();
    await expect(page).toHaveURL(/\/admin\/files$/);
    const section = page.getByRole('region', { name: 'The daily refresh' });
    await expect(section.getByRole('heading', { level: 2 })).toHaveText('The daily refresh');
    // The server runs the worker, on the default schedule; a run at 04:30 UTC would be the latest.
    await expect(section).toContainText(
      /The next is due on .+ \(schedule "30 4 \* \* \*", in UTC\)\./,
    );
    await expect(section).toContainText(/No daily refresh has run in the past week\.|The latest /);
    await expect(section).toContainText(/request/);
    const updated = section.getByText(/^Updated \d{1,2}:\d{2} [AP]M$/);
    await expect(updated).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Failing files' })).toBeVisible();
    await expectAccessible(page);

    // It keeps itself current: asked again within the minute while the tab shows.
    const firstUpdate = await updated.textContent();
    const askedAgain = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/admin/refresh',
    );
    await page.clock.fastForward('01:01');
    expect((await askedAgain).ok()).toBe(true);
    await expect(updated).not.toHaveText(firstUpdate ?? '');

    await page.setViewportSize({ width: 375, height: 740 });
    await expect(section).toContainText('The next is due on');
    await expectNoPageOverflow(page);
    await expectAccessible(page);
  });

  test('a web user is refused the admin screens, which ask the server for nothing', async ({
    page,
  }) => {
    const { signUp } = await import('./support.ts');
    await signUp(page, uniqueEmail('not-admin'));
    // The session says who is not an administrator: a call would only be refused (a 403).
    const asked: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (/^\/api\/(admin\/|user\/getusers|Feedback\/list)/i.test(pathname)) asked.push(pathname);
    });
    await page.goto('/admin/feedback');
    await expect(page.getByText('You do not have access to this page.')).toBeVisible();
    await page.goto('/admin/partners');
    await expect(page.getByText('You do not have access to this page.')).toBeVisible();
    // Said once on the files page.
    await page.goto('/admin/files');
    await expect(page.getByText('You do not have access to this page.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'The daily refresh' })).toHaveCount(0);
    await page.goto('/userList');
    await expect(page.getByText('You do not have access to this page.')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual([]);
  });
});
