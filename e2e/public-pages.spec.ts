import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { expectAccessible, expectNoPageOverflow } from './support.ts';

const PAGES = [
  { path: '/', heading: /Know what your care costs/ },
  { path: '/ourMission', heading: /./ },
  { path: '/productandservices', heading: /./ },
  { path: '/useCases', heading: /./ },
  { path: '/partner', heading: /./ },
  { path: '/privacy-policy', heading: /Privacy/i },
  { path: '/terms-condition', heading: /Terms/i },
] as const;

test.describe('public pages', () => {
  for (const { path, heading } of PAGES) {
    test(`${path} has one heading, a title and no accessibility violations`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      expect(await page.title()).toMatch(/RateLens/);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{20,}/);
      await expectAccessible(page);
    });
  }

  test('a screen opened by its address logs no warning or error in the console', async ({
    page,
  }) => {
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error')
        logged.push(`${message.type()}: ${message.text()}`);
    });
    // Screens split out of the first bundle, opened by their address.
    for (const path of ['/inventoryList', '/donation', '/productandservices']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    }
    expect(logged).toEqual([]);
  });

  test('a use case opens a modal of example uses', async ({ page }) => {
    await page.goto('/useCases');
    await page.getByRole('button', { name: 'Example uses: Employer groups' }).click();
    const dialog = page.getByRole('dialog', { name: 'Employer groups' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page);
    // The dialog's own Close button (the corner × carries the same name).
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toBeHidden();
  });

  test('each use case’s Example uses button shows its whole label, at 375 px and at 1280 px', async ({
    page,
  }) => {
    await page.goto('/useCases');
    const buttons = page.getByRole('button', { name: /^Example uses: / });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 740 });
      await expect(buttons).toHaveCount(5);
      // Mantine's button cuts off, without an ellipsis, a label wider than itself.
      const cut = await buttons.evaluateAll((nodes) =>
        nodes
          .filter((button) =>
            [button, button.querySelector('.mantine-Button-label')].some(
              (box) =>
                box === null ||
                box.scrollWidth > box.clientWidth ||
                box.scrollHeight > box.clientHeight,
            ),
          )
          .map((button) => button.textContent),
      );
      expect(cut, `labels cut off at ${width} px`).toEqual([]);
    }
  });

  test('the free Alaska rates file downloads with the Alaska rates in the database', async ({
    page,
  }) => {
    await page.goto('/');
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download the Alaska rates (CSV)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('ratelens-alaska-rates.csv');
    const text = await readFile((await download.path()) ?? '', 'utf8');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toContain('Hospital');
    // The browser tests' server loads the demo data: seven fictional Alaska hospitals.
    expect(lines.length).toBeGreaterThan(100);
    expect(lines[1]).toContain('Alaska');
    expect(text).toContain('Demo Gastineau Channel Hospital');
  });

  test('the contact form sends a message with an attachment, then clears', async ({
    page,
    request,
  }) => {
    await page.goto('/ourMission');
    await page.getByLabel('First Name').fill('Jane');
    await page.getByLabel('Last Name').fill('Doe');
    await page.getByLabel('Email').fill('jane.doe@example.com');
    await page.getByLabel('Subject').fill('Claims file');
    await page.getByLabel('Message').fill('Please look at our de-identified claims.');
    await page.locator('input[type="file"]').setInputFiles({
      name: 'claims.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('claim_id,cpt,billed\n1,99213,180.00\n2,70551,2400.00\n'),
    });
    // Uploaded at selection: the file is listed with a button to remove it.
    await expect(page.getByRole('button', { name: 'Remove claims.csv' })).toBeVisible();
    const send = page.getByRole('button', { name: 'Send message' });
    await expect(send).toBeEnabled();
    await send.click();
    await expect(
      page.getByText('Thank you for contacting us. We will get back to you soon.'),
    ).toBeVisible();
    await expect(page.getByLabel('First Name')).toHaveValue('');
    await expectAccessible(page);
    const outbox = (await (await request.get('/dev/outbox.json')).json()) as {
      subject: string;
      text: string;
    }[];
    expect(outbox.some((m) => m.text.includes('Please look at our de-identified claims.'))).toBe(
      true,
    );
  });

  test('the contact form shows the spec’s messages', async ({ page }) => {
    await page.goto('/ourMission');
    await page.getByLabel('First Name').fill('J4ne');
    await page.getByLabel('First Name').blur();
    await expect(page.getByText('First Name should be alphabetic.')).toBeVisible();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Email').blur();
    await expect(page.getByText('Email is not valid.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send message' })).toBeDisabled();
  });
});

test.describe('public pages at 375 px wide', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  for (const { path } of PAGES) {
    test(`${path} fits without sideways scrolling`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoPageOverflow(page);
    });
  }
});
