import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  expect,
  test,
  type APIRequestContext,
  type Locator,
  type Page,
  type Route,
} from '@playwright/test';
import { E2E_SERVER_LOG } from '../playwright.config.ts';
import { serveFiles } from '../packages/ingest/src/testing/file-server.ts';
import { sharedDataFile } from '../packages/ingest/src/testing/shared-data.ts';
import {
  createAdmin,
  expectAccessible,
  expectNoPageOverflow,
  ingest,
  signIn,
  uniqueEmail,
} from './support.ts';

// The browser tests' server starts on an empty database, so it loads the demo data (DEMO_DATA=on):
// fourteen fictional hospitals in six states, including Alaska's four CBSAs. The tests that count
// those fourteen come before the tests further down this file that add hospitals with the CLI (one
// database for the whole run, which no test empties); a file's tests run in order here (one worker,
// fullyParallel off in playwright.config.ts). Each test passes alone as well.

/**
 * Back on Alaska's list from Demo Gastineau Channel Hospital's page: the focus is on the
 * hospital's link in its row, in view, the filter as it was.
 */
async function expectBackOnGastineau(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/inventoryList\?state=AK$/);
  const link = page
    .getByRole('region', { name: 'Hospitals' })
    .getByRole('link', { name: 'Demo Gastineau Channel Hospital' });
  await expect(link).toBeFocused();
  await expect(link).toBeInViewport();
  await expect(page.getByText('7 hospitals')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'State Name', exact: true })).toHaveValue(
    'Alaska (AK)',
  );
}

/**
 * The inventory's rows as the API gives them, for a test that adds hospitals to count from what
 * this run's database holds before it does: the demo data, and whatever a test run before it added.
 */
async function inventoryRows(request: APIRequestContext): Promise<{ stateName: string }[]> {
  const response = await request.get('/api/Inventory/InventoryListings');
  expect(response.ok(), 'GET /api/Inventory/InventoryListings').toBe(true);
  return (await response.json()) as { stateName: string }[];
}

async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('npm start on an empty database loads the demo data and says so', async ({ page }) => {
  const printed = readFileSync(E2E_SERVER_LOG, 'utf8');
  expect(printed).toContain(
    'The database has no hospitals yet: loading the demo data (fictional hospitals)…',
  );
  const said =
    /Loaded demo data: (\d+) fictional hospitals in (\d+) states, ([\d,]+) rates, in \d+\.\d s\. Set DEMO_DATA=off to start empty\./.exec(
      printed,
    );
  expect(said, printed).not.toBeNull();
  const [hospitals, states, rates] = (said ?? []).slice(1).map((n) => Number(n.replace(/,/g, '')));
  expect(states).toBeGreaterThanOrEqual(6);
  expect(rates).toBeGreaterThan(0);
  // The number it gives is the number the inventory lists.
  await page.goto('/inventoryList');
  await expect(page.getByText(`${hospitals} hospitals`)).toBeVisible();
});

test.describe('inventory list', () => {
  test('lists the hospitals with the spec’s columns, and narrows by state and metro area', async ({
    page,
  }) => {
    await page.goto('/inventoryList');
    await expect(page.getByRole('heading', { name: 'Inventory List', level: 1 })).toBeVisible();
    const table = page.getByRole('table');
    for (const column of [
      'State Name',
      'MSA Name',
      'Care Center',
      'Facility Name',
      'Has Files',
      'Cash Rates',
      'Commercial Rates',
      'Medicare Rates',
      'Inpatient',
      'Outpatient',
      'Drugs',
    ]) {
      await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    }
    await expect(page.getByText('14 hospitals')).toBeVisible();
    await expectAccessible(page);

    await choose(page, 'State Name', 'Alaska (AK)');
    await expect(page).toHaveURL(/state=AK/);
    await expect(page.getByText('7 hospitals')).toBeVisible();
    await choose(page, 'MSA', 'Anchorage, AK');
    await expect(page.getByText('2 hospitals')).toBeVisible();
    for (const row of await table.getByRole('row').all()) {
      const text = await row.innerText();
      if (!text.includes('State Name')) expect(text).toContain('Anchorage, AK');
    }
    await expectAccessible(page);
  });

  test('a shared link may spell the state in lower case', async ({ page }) => {
    await page.goto('/inventoryList?state=ak');
    await expect(page.getByText('7 hospitals')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'State Name', exact: true })).toHaveValue(
      'Alaska (AK)',
    );
  });

  test('a shared link naming no state says so, and shows every state', async ({ page }) => {
    await page.goto('/inventoryList?state=zz&msa=11260');
    await expect(
      page.getByText('The link\'s state "ZZ" is not one we know, so every state is shown.'),
    ).toBeVisible();
    await expect(page.getByText('14 hospitals')).toBeVisible();
    await expectAccessible(page);
  });

  test('a keyboard user types a state and a metro area and chooses each with Enter', async ({
    page,
  }) => {
    await page.goto('/inventoryList');
    await expect(page.getByText('14 hospitals')).toBeVisible();
    await page.getByRole('combobox', { name: 'State Name', exact: true }).focus();
    await page.keyboard.type('alas');
    // Enter chooses the option shown, as a person sees it first (the lists load from the server).
    await expect(page.getByRole('option', { name: /Alaska/ })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/state=AK/);
    await expect(page.getByText('7 hospitals')).toBeVisible();
    await page.getByRole('combobox', { name: 'MSA', exact: true }).focus();
    await page.keyboard.type('anch');
    await expect(page.getByRole('option', { name: /Anchorage/ })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/msa=11260/);
    await expect(page.getByText('2 hospitals')).toBeVisible();
  });

  test('a keyboard user clears a filter with its clear button', async ({ page }) => {
    await page.goto('/inventoryList?state=AK');
    await expect(page.getByText('7 hospitals')).toBeVisible();
    const stateField = page.getByRole('combobox', { name: 'State Name', exact: true });
    await stateField.focus();
    // A focused field shows a 2 px ring, as a focused link or button does.
    expect(
      await stateField.evaluate((field) => {
        const style = getComputedStyle(field);
        return `${style.outlineStyle} ${style.outlineWidth}`;
      }),
    ).toBe('solid 2px');
    await page.keyboard.press('Escape');
    // The clear button is the next stop after its field, and says what it does.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Clear state' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/inventoryList$/);
    await expect(page.getByText('14 hospitals')).toBeVisible();
    await expect(stateField).toHaveValue('');
    await expect(stateField).toBeFocused();
  });

  test('the header row stays in view while the rows scroll, in the page and in the table’s region', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 500 });
    await page.goto('/inventoryList');
    await expect(page.getByText('14 hospitals')).toBeVisible();
    const region = page.getByRole('region', { name: 'Hospitals' });
    const head = region.locator('thead');
    const rows = region.getByRole('row');
    const top = (locator: Locator) =>
      locator.evaluate((element) => Math.round(element.getBoundingClientRect().top));

    // The page scrolls past the table's start: the header row stays at the top of the window,
    // over the rows.
    const start = await top(head);
    await page.evaluate((y) => window.scrollTo(0, y), start + 150);
    await expect.poll(() => top(head)).toBe(0);
    expect(await top(rows.nth(1))).toBeLessThan(0);
    expect(
      await page.evaluate(() => document.elementFromPoint(300, 10)?.closest('thead') !== null),
    ).toBe(true);

    // Squeezed to 375 px, the table scrolls in its region, which is no taller than the window:
    // the header row stays at the region's top while its rows scroll.
    await page.addStyleTag({
      content: '[role="region"][aria-label="Hospitals"] { width: 375px; }',
    });
    await expect(region).toHaveAttribute('tabindex', '0');
    await region.evaluate((element) => element.scrollIntoView());
    const regionBox = await region.boundingBox();
    expect(regionBox?.height ?? Infinity).toBeLessThanOrEqual(500);
    await region.evaluate((element) => element.scrollTo(60, 150));
    await expect.poll(() => region.evaluate((element) => element.scrollTop)).toBe(150);
    const regionTop = await top(region);
    expect(await top(head)).toBe(regionTop);
    expect(await top(rows.nth(1))).toBeLessThan(regionTop);
    // The page itself still does not scroll sideways.
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      ),
    ).toBe(true);
    await expectAccessible(page);
  });

  test('the table’s region is a stop for the Tab key only while the table is wider than it', async ({
    page,
  }) => {
    await page.goto('/inventoryList');
    await expect(page.getByText('14 hospitals')).toBeVisible();
    const region = page.getByRole('region', { name: 'Hospitals' });
    const stateField = page.getByRole('combobox', { name: 'State Name', exact: true });
    const tabFromState = async () => {
      await stateField.focus();
      await page.keyboard.press('Escape');
      await page.keyboard.press('Tab');
    };
    // At 1,280 px the eleven columns fit: no stop that scrolls nothing, Tab goes to the first link.
    await expect(region).not.toHaveAttribute('tabindex');
    await tabFromState();
    await expect(region.getByRole('link').first()).toBeFocused();

    // Squeezed to 375 px, the table scrolls sideways in its region: a stop, scrolled by the keys.
    const squeeze = await page.addStyleTag({
      content: '[role="region"][aria-label="Hospitals"] { width: 375px; }',
    });
    await expect(region).toHaveAttribute('tabindex', '0');
    await expect(region).toHaveAccessibleName('Hospitals');
    await tabFromState();
    await expect(region).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    await expectAccessible(page);

    // Wide again, it fits: the stop goes.
    await squeeze.evaluate((style) => (style as HTMLStyleElement).remove());
    await expect(region).not.toHaveAttribute('tabindex');
  });

  test('opens a hospital with its file, CMS version and validation summary', async ({ page }) => {
    await page.goto('/inventoryList?state=AK');
    await page.getByRole('link', { name: 'Demo Gastineau Channel Hospital' }).click();
    await expect(page).toHaveURL(/\/inventoryList\/[0-9a-f-]{36}/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Demo');
    await expect(page.getByText('Demo data: fictional hospital')).toBeVisible();
    await expect(page.getByText(/Juneau, AK/).first()).toBeVisible();
    await expect(page.getByText('In use')).toBeVisible();
    await expect(page.getByText(/CMS template version 3\.0\.0/)).toBeVisible();
    await expect(page.getByText(/Last updated by the hospital on January 15, 2026/)).toBeVisible();
    // What the file's rates are, as the ingest counted them.
    await expect(page.getByText(/^From \d+ payers in \d+ plans\.$/)).toBeVisible();
    await expect(page.getByText('By line of business')).toBeVisible();
    await expect(page.getByText(/^Commercial: [\d,]+ rates \(\d+%\)$/)).toBeVisible();
    await expect(page.getByText(/^A dollar amount: [\d,]+ rates \(\d+%\)$/)).toBeVisible();
    // The demo files follow the CMS template to the letter.
    await expect(page.getByText('Validation', { exact: true })).toBeVisible();
    await expect(page.getByText('No problems found.')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Back to the inventory' }).click();
    await expectBackOnGastineau(page);
  });

  test("the browser's Back button also puts the focus back on the hospital's link", async ({
    page,
  }) => {
    await page.goto('/inventoryList?state=AK');
    await page.getByRole('link', { name: 'Demo Gastineau Channel Hospital' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Demo Gastineau Channel Hospital',
    );
    await expect(page.getByRole('main')).toBeFocused();

    await page.goBack();
    await expectBackOnGastineau(page);

    // Forward again, the hospital's page takes the focus, as any new screen does.
    await page.goForward();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Demo Gastineau Channel Hospital',
    );
    await expect(page.getByRole('main')).toBeFocused();
  });
});

test("an admin sets a hospital's labels on its page, and everyone sees them", async ({
  page,
  browser,
}) => {
  const admin = uniqueEmail('admin-labels');
  await createAdmin(admin);
  await signIn(page, admin);
  await page.goto('/inventoryList?state=AK');
  await page.getByRole('link', { name: 'Demo Gastineau Channel Hospital' }).click();
  const form = page.getByRole('form', { name: 'Labels (administrators)' });
  const system = form.getByRole('textbox', { name: 'Health system' });
  await expect(system).not.toHaveValue('');
  const before = await system.inputValue();

  await system.fill('  Southeast Alaska Health Partners ');
  await form.getByRole('button', { name: 'Save labels' }).click();
  await expect(form.getByText("The hospital's labels were saved.")).toBeVisible();
  // Stored trimmed, and shown above the form at once.
  await expect(system).toHaveValue('Southeast Alaska Health Partners');
  await expect(page.getByText('Health system: Southeast Alaska Health Partners')).toBeVisible();
  await expectAccessible(page);

  // A visitor who is not signed in sees the label but not the form.
  const visitor = await browser.newPage();
  await visitor.goto(page.url());
  await expect(visitor.getByText('Health system: Southeast Alaska Health Partners')).toBeVisible();
  await expect(visitor.getByRole('form', { name: 'Labels (administrators)' })).toHaveCount(0);
  await visitor.close();

  // Emptied, the label is cleared; then the demo's own label is put back for the other tests.
  await system.fill('');
  await form.getByRole('button', { name: 'Save labels' }).click();
  await expect(form.getByText("The hospital's labels were saved.")).toBeVisible();
  await expect(page.getByText(/^Health system:/)).toHaveCount(0);
  await system.fill(before);
  await form.getByRole('button', { name: 'Save labels' }).click();
  await expect(page.getByText(`Health system: ${before}`)).toBeVisible();
});

test.describe('inventory at 375 px wide', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('each hospital is a card, its name first, and nothing scrolls sideways', async ({
    page,
  }) => {
    await page.goto('/inventoryList');
    await expect(page.getByText('14 hospitals')).toBeVisible();
    await expectNoPageOverflow(page);
    // The eleven columns would put Facility Name, the way in, off-screen: cards instead.
    await expect(page.getByRole('table')).toBeHidden();
    const cards = page.getByRole('list', { name: 'Hospitals' }).locator('> li');
    await expect(cards).toHaveCount(14);
    const first = cards.first();
    await expect(first.getByRole('link')).toBeInViewport();
    // Where it is, named as the table's columns are.
    await expect(first.getByText(/^State Name: /)).toBeVisible();
    await expect(first.getByText(/^MSA Name: /)).toBeVisible();
    await expect(first.getByRole('list', { name: /^What .+ publishes$/ })).toContainText(
      'Commercial Rates',
    );
    await expectAccessible(page);

    // The card's link leads to the hospital, and back to the cards.
    await page.goto('/inventoryList?state=AK');
    await page.getByRole('link', { name: 'Demo Gastineau Channel Hospital' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Demo Gastineau Channel Hospital',
    );
    await page.getByRole('link', { name: 'Back to the inventory' }).click();
    await expect(page).toHaveURL(/\/inventoryList\?state=AK$/);
    // The focus is back on the hospital's card, its link.
    const link = page
      .getByRole('list', { name: 'Hospitals' })
      .getByRole('link', { name: 'Demo Gastineau Channel Hospital' });
    await expect(link).toBeFocused();
    await expect(link).toBeInViewport();
  });

  test('a filter’s clear button is a target of at least 24 by 24 px (WCAG 2.5.8)', async ({
    page,
  }) => {
    await page.goto('/inventoryList?state=AK');
    const clear = page.getByRole('button', { name: 'Clear state' });
    await expect(clear).toBeVisible();
    const box = await clear.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(24);
    expect(box?.height).toBeGreaterThanOrEqual(24);
  });

  test("a hospital's page fits without sideways scrolling", async ({ page }) => {
    await page.goto('/inventoryList?state=AK');
    await page.getByRole('link', { name: 'Demo Gastineau Channel Hospital' }).click();
    await expect(page.getByText(/CMS template version 3\.0\.0/)).toBeVisible();
    await expect(page.getByText('Where the dollar figure comes from')).toBeVisible();
    await expectNoPageOverflow(page);
    await expectAccessible(page);
  });

  test('a name of one long word wraps, on the cards and on its page', async ({ page }) => {
    // Files name hospitals as they like: this one without a space.
    const long = 'DemoSaintElsewhereRegionalMedicalCenterAndChildrensHospitalOfTheNorth';
    const rename = async (route: Route) => {
      const response = await route.fetch();
      const body = (await response.text()).replaceAll('Demo Gastineau Channel Hospital', long);
      await route.fulfill({ response, body });
    };
    await page.route('**/api/Inventory/InventoryListings', rename);
    await page.route('**/api/Inventory/hospital/*', rename);
    await page.goto('/inventoryList?state=AK');
    await expect(page.getByRole('link', { name: long })).toBeVisible();
    await expectNoPageOverflow(page);
    await page.getByRole('link', { name: long }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(long);
    await expectNoPageOverflow(page);
  });

  test("a file's long name wraps after an underscore or hyphen, its extension whole", async ({
    page,
  }) => {
    // A name as hospitals write them: its last piece and extension fill most of a line.
    const name = '920123456_demo-gastineau-channel-hospital_standardcharges_v3.csv';
    await page.route('**/api/Inventory/hospital/*', async (route) => {
      const response = await route.fetch();
      const hospital = (await response.json()) as { files: { source: string }[] };
      for (const file of hospital.files) file.source = name;
      await route.fulfill({ response, json: hospital });
    });
    await page.goto('/inventoryList?state=AK');
    await page.getByRole('link', { name: 'Demo Gastineau Channel Hospital' }).click();
    const heading = page.getByRole('heading', { level: 3, name });
    await expect(heading).toBeVisible();

    // The name's text line by line, as laid out.
    const lines = await heading.evaluate((element) => {
      const found: string[] = [];
      let lineTop = -Infinity;
      const range = document.createRange();
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let at = 0; at < text.length; at += 1) {
          range.setStart(node, at);
          range.setEnd(node, at + 1);
          const box = range.getBoundingClientRect();
          const char = text.charAt(at);
          if (box.top > lineTop + box.height / 2) {
            found.push(char);
            lineTop = box.top;
          } else {
            found.push(`${found.pop() ?? ''}${char}`);
          }
        }
      }
      return found;
    });
    expect(lines.join('')).toBe(name);
    expect(lines.length, lines.join(' / ')).toBeGreaterThan(1);
    // Each line but the last ends at a separator; the extension is on one line, with its stem.
    for (const line of lines.slice(0, -1)) expect(line, lines.join(' / ')).toMatch(/[_.-]$/);
    expect(lines.at(-1), lines.join(' / ')).toMatch(/_v3\.csv$/);
    await expectNoPageOverflow(page);
    await expectAccessible(page);
  });
});

test('on a tablet the hospitals are cards side by side; from 1,200 px the table, every column in view', async ({
  page,
}) => {
  const cards = page.getByRole('list', { name: 'Hospitals' }).locator('> li');
  const table = page.getByRole('region', { name: 'Hospitals' }).getByRole('table');
  const noSidewaysScroll = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
    );
  for (const [width, perRow] of [
    [768, 2],
    [1024, 3],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/inventoryList');
    await expect(page.getByText('14 hospitals')).toBeVisible();
    // The eleven columns would put the last rate types off to the side: cards instead.
    await expect(table).toBeHidden();
    const tops = await cards.evaluateAll((items) =>
      items.slice(0, 4).map((item) => Math.round(item.getBoundingClientRect().top)),
    );
    expect(
      tops.filter((top) => top === tops[0]),
      `cards in the first row at ${width} px`,
    ).toHaveLength(perRow);
    expect(await noSidewaysScroll()).toBe(true);
  }
  await expectAccessible(page);

  await page.setViewportSize({ width: 1200, height: 900 });
  await expect(table).toBeVisible();
  await expect(cards.first()).toBeHidden();
  const drugs = await table.getByRole('columnheader', { name: 'Drugs' }).boundingBox();
  expect((drugs?.x ?? 0) + (drugs?.width ?? Infinity)).toBeLessThanOrEqual(1200);
});

// After every test that counts the demo's fourteen hospitals: it adds one (in Florida, which no other
// browser test searches). It counts from the hospitals already there, so it passes alone too.
test('a real file loaded by the CLI shows where it deviates; a broken one is listed with its error', async ({
  page,
  request,
}, testInfo) => {
  const file = sharedDataFile(
    'mrf-real-json-adventhealth-orlando/adventhealth-orlando_standardcharges_v3.0.0_excerpt.json',
  );
  test.skip(file === null, 'the shared data is not beside the repository');
  const before = (await inventoryRows(request)).length;
  const loaded = await ingest(file ?? '');
  // Counted with Python in the file: 150 items with 177 standard charges and 3,287 payer rates;
  // its one modifier (TC) and that modifier's 74 payer entries are no charge and no rate.
  expect(loaded.ok).toBe(true);
  expect(loaded.result).toMatchObject({
    hospital: 'AdventHealth Orlando',
    status: 'loaded',
    items: 177,
    rates: 3287,
  });

  expect(await inventoryRows(request)).toHaveLength(before + 1);
  await page.goto('/inventoryList');
  await expect(page.getByText(`${before + 1} hospitals`)).toBeVisible();
  await choose(page, 'State Name', 'Florida (FL)');
  await page.getByRole('link', { name: 'AdventHealth Orlando', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('AdventHealth Orlando');
  await expect(page.getByText('Demo data: fictional hospital')).toHaveCount(0);
  await expect(page.getByText('Format: JSON')).toBeVisible();
  await expect(page.getByText(/CMS template version 3\.0\.0/)).toBeVisible();
  await expect(page.getByText('177 charges, 3,287 rates')).toBeVisible();
  // How fresh its prices are: the date the hospital gives its file, and the day it was read.
  await expect(
    page.getByText(/^Prices from the hospital’s file last updated on April 1, 2026, read on /),
  ).toBeVisible();

  // The three deviations the file has, in plain words, each with where it was first.
  const validation = page.getByRole('listitem').filter({ hasText: 'without their leading zeros' });
  await expect(validation).toContainText(
    '30 codes were written without their leading zeros (read with them, as 0450 for revenue code 450)',
  );
  // Places in words, without rule ids or JSON paths.
  await expect(validation).toContainText('first at item 42');
  await expect(page.getByText(/\(rule |standard_charge_information\[/)).toHaveCount(0);
  // Fields in words too, folded examples included: the attester's name, not attester_name.
  await expect(page.getByText(/attester_name|billing_class/)).toHaveCount(0);
  await expect(
    page.getByRole('listitem').filter({ hasText: 'is not a CMS field name, and its values were' }),
  ).toBeVisible();
  // The examples stay folded until asked for, then say where in the file.
  const where = validation.getByText('Where in the file (5 examples)');
  await expect(validation.getByText('item 42: revenue code 250')).toBeHidden();
  await where.click();
  await expect(validation.getByText('item 42: revenue code 250')).toBeVisible();
  await expect(validation.getByText('item 46: revenue code 259')).toBeVisible();
  await expectAccessible(page);
  // By keyboard too: the folded examples of the stray spaces open with Enter.
  const spaces = page.getByRole('listitem').filter({ hasText: 'stray spaces' });
  await spaces.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(
    spaces.getByText("the attestation: the attester's name “Tim Reiner ”"),
  ).toBeVisible();

  // The same file cut short: refused, the rates stay, and the page says why.
  // In the test's own output folder, which Playwright empties at the start of the next run.
  const cut = testInfo.outputPath('cut-short.json');
  const whole = readFileSync(file ?? '');
  writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
  const broken = await ingest(cut);
  expect(broken).toMatchObject({ ok: false, result: { status: 'failed' } });
  await page.reload();
  await expect(page.getByText('cut-short.json')).toBeVisible();
  await expect(page.getByText('Failed', { exact: true })).toBeVisible();
  // Said once, with what was read before the file broke off.
  await expect(page.getByText(/The JSON file ends before it is complete/)).toHaveCount(1);
  await expect(
    page.getByText(/^Error: The JSON file ends before it is complete \(after \d+ items/),
  ).toBeVisible();
  // Each file's report begins with its totals: the one in use, and the one cut short.
  await expect(
    page.getByText(
      /^[\d,]+ charges with [\d,]+ payer rates read(, and 1 modifier with 74 payer entries)?; 0 charges/,
    ),
  ).toHaveCount(2);
  await expect(page.getByText('In use', { exact: true })).toBeVisible();
  await expect(page.getByText('177 charges, 3,287 rates')).toBeVisible();
  await expectAccessible(page);

  // Read again twice, then again with --reload: three cards of one file, each with when it
  // finished (the two runs that changed nothing as one); the first was replaced by the same
  // bytes, not by a newer file, and the runs that changed nothing do not repeat the validation.
  for (let again = 0; again < 2; again++)
    expect((await ingest(file ?? '')).result).toMatchObject({ status: 'unchanged' });
  expect((await ingest('--reload', file ?? '')).result).toMatchObject({ status: 'loaded' });
  await page.reload();
  const runs = page.locator('.mantine-Card-root').filter({
    has: page.getByRole('heading', { name: path.basename(file ?? ''), exact: true }),
  });
  await expect(runs).toHaveCount(3);
  await expect(runs.nth(0)).toContainText('In use');
  await expect(runs.nth(1)).toContainText(
    'Same file as the one in use at the time: nothing changed',
  );
  await expect(runs.nth(2)).toContainText('Replaced when the same file was read again');
  await expect(page.getByText('Replaced by a newer file')).toHaveCount(0);
  const day = String.raw`[A-Z][a-z]+ \d{1,2}, \d{4}`;
  const time = String.raw`\d{1,2}:\d\d [AP]M`;
  for (const run of [runs.nth(0), runs.nth(2)])
    await expect(run.getByText(new RegExp(`^Read on ${day} at ${time}$`))).toBeVisible();
  // Two runs seconds apart: in one minute, or two of one day (or of two days, at midnight).
  const twice = [
    ` on ${day} at ${time}`,
    ` on ${day}, from ${time} to ${time}`,
    `, from ${day} at ${time} to ${day} at ${time}`,
  ];
  await expect(
    runs.nth(1).getByText(new RegExp(`^Read 2 times(?:${twice.join('|')})$`)),
  ).toBeVisible();
  await expect(runs.nth(1).getByRole('heading', { name: 'Validation' })).toHaveCount(0);
  // The run before the file in use is history: its figures are folded until asked for.
  const leadingZeros = runs
    .getByRole('listitem')
    .filter({ hasText: 'without their leading zeros' });
  await expect(leadingZeros).toHaveCount(1);
  await expect(
    runs.nth(0).getByText('Format, counts, rates and validation of this run'),
  ).toHaveCount(0);
  await runs
    .nth(2)
    .locator('summary', { hasText: 'Format, counts, rates and validation of this run' })
    .focus();
  await page.keyboard.press('Enter');
  await expect(leadingZeros).toHaveCount(2);
  await expect(runs.nth(2).getByRole('heading', { name: 'Validation' })).toBeVisible();
  await expectAccessible(page);
});

/**
 * A small CMS v3.0 tall CSV of one hospital in Burlington, Vermont, with one charge. Its second
 * type 2 NPI is a placeholder, which is not an NPI.
 */
function vermontHospital(name: string, licence: string): string {
  return [
    'hospital_name,last_updated_on,version,location_name,hospital_address,license_number|VT,type_2_npi,' +
      '"To the best of its knowledge and belief, this hospital has included all applicable standard charge information in accordance with the requirements of 45 CFR 180.50, and the information encoded is true, accurate, and complete as of the date in the file. This hospital has included all payer-specific negotiated charges in dollars that can be expressed as a dollar amount. For payer-specific negotiated charges that cannot be expressed as a dollar amount in the machine-readable file or not knowable in advance, the hospital attests that the payer-specific negotiated charge is based on a contractual algorithm, percentage or formula that precludes the provision of a dollar amount and has provided all necessary information available to the hospital for the public to be able to derive the dollar amount, including, but not limited to, the specific fee schedule or components referenced in such percentage, algorithm or formula.",attester_name',
    `${name},2026-04-01,3.0.0,${name},"111 Colchester Ave, Burlington, VT 05401",${licence},1234567893|0000000001,true,Pat Attester`,
    'description,code|1,code|1|type,setting,standard_charge|gross,standard_charge|discounted_cash,payer_name,plan_name,standard_charge|negotiated_dollar,standard_charge|min,standard_charge|max,standard_charge|methodology',
    'MRI of brain (no contrast),70551,CPT,outpatient,1200,1080,Platform Health Insurance,PPO,400,400,400,fee schedule',
    '',
  ].join('\r\n');
}

// After every test that counts the demo's fourteen hospitals: it takes the
// inventory past one page (50 rows) with forty hospitals in Vermont, which no other browser test
// searches. It counts from the hospitals already there (the demo's fourteen, and AdventHealth Orlando
// when the test above ran first), so it passes alone too.
test('a long inventory turns pages by mouse and keyboard, and a hospital leads back to its page', async ({
  page,
  request,
}, testInfo) => {
  // Forty files loaded by the CLI, one after another: 28 s alone on this machine, more beside
  // other work (it once ran past the 30 s every test has).
  test.setTimeout(90_000);
  const before = await inventoryRows(request);
  // Vermont's hospitals will be these forty only, and they sort after every state already there.
  expect(before.filter((row) => row.stateName >= 'Vermont')).toEqual([]);
  const total = before.length + 40;
  // Two pages of 50: the second holds at least Vermont's last three (38, 39 and 40).
  expect(total).toBeGreaterThanOrEqual(53);
  expect(total).toBeLessThanOrEqual(100);

  const folder = testInfo.outputPath();
  const files = Array.from({ length: 40 }, (_, i) => {
    const file = path.join(folder, `vermont-${i + 1}.csv`);
    const number = String(i + 1).padStart(2, '0');
    writeFileSync(file, vermontHospital(`Green Mountain Test Hospital ${number}`, `VT-${number}`));
    return file;
  });
  const loaded = await ingest(...files);
  expect(loaded.ok).toBe(true);
  expect(loaded.results.map((result) => result.status)).toEqual(files.map(() => 'loaded'));
  expect(await inventoryRows(request)).toHaveLength(total);

  await page.goto('/inventoryList');
  await expect(page.getByText(`${total} hospitals, showing 1–50`)).toBeVisible();
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(51);
  const pages = page.getByRole('navigation', { name: 'Pages of hospitals' });
  await expect(pages.getByRole('button', { name: 'Page 1' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expectAccessible(page);

  // The rows are in order of state, metro area and name: Vermont's come last.
  await pages.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText(`${total} hospitals, showing 51–${total}`)).toBeVisible();
  await expect(page).toHaveURL(/\/inventoryList\?page=2$/);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(1 + total - 50);
  await expect(page.getByRole('link', { name: 'Green Mountain Test Hospital 40' })).toBeVisible();
  // The keyboard goes back to the count, above the new rows.
  await expect(page.getByText(`${total} hospitals, showing 51–${total}`)).toBeFocused();
  await expectAccessible(page);

  // By keyboard: back to page 1 from its button.
  await pages.getByRole('button', { name: 'Page 1' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(`${total} hospitals, showing 1–50`)).toBeVisible();
  await expect(page).toHaveURL(/\/inventoryList$/);

  // A hospital on page 2, and the way back to that page.
  // By keyboard: the new screen takes the focus, so a screen reader reads it from its start.
  await page.goto('/inventoryList?page=2');
  await page.getByRole('link', { name: 'Green Mountain Test Hospital 38' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Green Mountain Test Hospital 38',
  );
  await expect(page.getByRole('main')).toBeFocused();
  await expect(page.getByText(/Burlington-South Burlington, VT/)).toBeVisible();
  // (The file's validation, further down, says so too.)
  await expect(page.getByRole('listitem').filter({ hasText: /^0000000001/ })).toHaveText(
    '0000000001 (not a valid NPI)',
  );
  await expectAccessible(page);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Back to the inventory' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(`${total} hospitals, showing 51–${total}`)).toBeVisible();
  await expect(page).toHaveURL(/\/inventoryList\?page=2$/);
  // The keyboard is back where it left the list: on the hospital's link, in view, not under the
  // sticky header row.
  const back = page
    .getByRole('table')
    .getByRole('link', { name: 'Green Mountain Test Hospital 38' });
  await expect(back).toBeFocused();
  await expect(back).toBeInViewport();
  expect(
    await back.evaluate((link) => {
      const line = link.getClientRects()[0];
      if (line === undefined) return false;
      return link.contains(document.elementFromPoint(line.x + 4, line.y + line.height / 2));
    }),
  ).toBe(true);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Green Mountain Test Hospital 39' })).toBeFocused();
  // The browser's Back button returns the same way: to page 2, on the link of the hospital left.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Green Mountain Test Hospital 39',
  );
  await page.goBack();
  await expect(page.getByText(`${total} hospitals, showing 51–${total}`)).toBeVisible();
  await expect(page).toHaveURL(/\/inventoryList\?page=2$/);
  await expect(
    page.getByRole('table').getByRole('link', { name: 'Green Mountain Test Hospital 39' }),
  ).toBeFocused();

  // A filter shows its own rows from their first page.
  await choose(page, 'State Name', 'Vermont (VT)');
  await expect(page.getByText('40 hospitals')).toBeVisible();
  await expect(pages).toHaveCount(0);

  // At 375 px the page controls fit without sideways scrolling.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/inventoryList?page=2');
  await expect(pages.getByRole('button', { name: 'Page 2' })).toBeVisible();
  await expectNoPageOverflow(page);
});

// After the test above, which counts Vermont's hospitals.
test("a file read before and not put in use is passed over, and its hospital's page says so", async ({
  page,
}, testInfo) => {
  // One hospital's file, and a copy saved with a line end more: the same date, other bytes.
  const text = vermontHospital('Two Files Test Hospital', 'VT-TWO');
  const [first, copy] = [testInfo.outputPath('two-files.csv'), testInfo.outputPath('copy.csv')];
  writeFileSync(first, text);
  writeFileSync(copy, `${text}\r\n`);
  expect((await ingest(first)).result).toMatchObject({ status: 'loaded' });
  // Of the same date, the copy replaces it; the first, unchanged, is then passed over.
  expect((await ingest(copy)).result).toMatchObject({ status: 'loaded' });
  expect((await ingest(first)).result).toMatchObject({ status: 'skipped' });

  await page.goto('/inventoryList?state=VT');
  await page.getByRole('link', { name: 'Two Files Test Hospital', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Two Files Test Hospital');
  const cards = (name: string) =>
    page.locator('.mantine-Card-root').filter({
      has: page.getByRole('heading', { name, exact: true }),
    });
  await expect(cards('copy.csv')).toContainText('In use');
  const runs = cards('two-files.csv');
  await expect(runs).toHaveCount(2);
  await expect(runs.nth(0)).toContainText(
    'Same file as when it was read before and not put in use: not read again',
  );
  await expect(runs.nth(0).getByRole('heading', { name: 'Validation' })).toHaveCount(0);
  await expect(runs.nth(1)).toContainText(
    'Replaced by another file of the same date, loaded later',
  );
  await expectAccessible(page);
});

test("an admin has a hospital's newer file read now, and its page shows it in use", async ({
  page,
}, testInfo) => {
  const file = testInfo.outputPath('refresh-now.csv');
  const text = vermontHospital('Refresh Now Test Hospital', 'VT-REFRESH');
  writeFileSync(file, text);
  expect((await ingest(file)).result).toMatchObject({ status: 'loaded' });
  // The hospital publishes a newer file at the same place.
  writeFileSync(file, text.replace(',2026-04-01,', ',2026-05-01,'));

  const admin = uniqueEmail('admin-refresh');
  await createAdmin(admin);
  await signIn(page, admin);
  await page.goto('/inventoryList?state=VT');
  await page.getByRole('link', { name: 'Refresh Now Test Hospital', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Refresh Now Test Hospital');
  const section = page.getByRole('region', { name: 'Newer file (administrators)' });
  await section.getByRole('button', { name: 'Read its file again now' }).click();
  await expect(section.getByRole('status')).toContainText('Asked.');
  // The server's own worker takes the request up, and the page sees the newer file in use.
  await expect(section.getByRole('status')).toHaveText(
    'Read again: the files above show the result.',
    { timeout: 30_000 },
  );
  const cards = page.locator('.mantine-Card-root').filter({
    has: page.getByRole('heading', { name: 'refresh-now.csv', exact: true }),
  });
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toContainText('In use');
  await expect(cards.nth(0)).toContainText('Last updated by the hospital on May 1, 2026');
  await expect(cards.nth(1)).toContainText('Replaced by a newer file');
  await expectAccessible(page);

  // On a phone the section and its button fit the screen.
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(section.getByRole('button', { name: 'Read its file again now' })).toBeVisible();
  await expectNoPageOverflow(page);
});

test("an admin has a hospital's file read again after it was taken down, and it is listed as failing", async ({
  page,
}) => {
  const text = vermontHospital('Taken Down Test Hospital', 'VT-GONE');
  const files: Record<string, Buffer> = { '/taken-down.csv': Buffer.from(text) };
  const server = await serveFiles(files);
  try {
    const url = server.url('/taken-down.csv');
    expect((await ingest(url)).result).toMatchObject({ status: 'loaded' });
    // The hospital takes the file down: its server answers 404.
    delete files['/taken-down.csv'];

    const admin = uniqueEmail('admin-gone');
    await createAdmin(admin);
    await signIn(page, admin);
    await page.goto('/inventoryList?state=VT');
    await page.getByRole('link', { name: 'Taken Down Test Hospital', exact: true }).click();
    const section = page.getByRole('region', { name: 'Newer file (administrators)' });
    await section.getByRole('button', { name: 'Read its file again now' }).click();
    // The failed read is the hospital's: the page sees it, rather than say after two minutes
    // that no worker took the request.
    await expect(section.getByRole('status')).toHaveText(
      'Read again: the files above show the result.',
      { timeout: 30_000 },
    );
    const cards = page.locator('.mantine-Card-root').filter({
      has: page.getByRole('heading', { name: 'taken-down.csv', exact: true }),
    });
    await expect(cards).toHaveCount(2);
    await expect(cards.nth(0)).toContainText('Failed');
    await expect(cards.nth(0)).toContainText(
      `Error: The server answered 404 Not Found for ${url}.`,
    );
    await expect(cards.nth(1)).toContainText('In use');
    await expectAccessible(page);

    // The administrators' list of files that could not be read names it, with why.
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Files' })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Files that could not be read',
    );
    const row = page.getByRole('row').filter({ hasText: 'Taken Down Test Hospital' });
    await expect(row).toContainText(`The server answered 404 Not Found for ${url}.`);
    await expect(row).toContainText('1 failed read');
    await expect(row).toContainText('Rates from the file read on');
    await expectAccessible(page);
    await row.getByRole('link', { name: 'Taken Down Test Hospital' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Taken Down Test Hospital');

    // On a phone, one card per hospital, and nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/admin/files');
    const card = page
      .getByRole('list', { name: 'Files that could not be read' })
      .getByRole('listitem')
      .filter({ hasText: 'Taken Down Test Hospital' });
    await expect(card).toContainText('Error: The server answered 404 Not Found');
    await expectNoPageOverflow(page);
    await expectAccessible(page);
  } finally {
    await server.close();
  }
});

test("while the worker reads a hospital's newer file, its page shows how far it is", async ({
  page,
}) => {
  test.setTimeout(90_000);
  // The older file, and a newer one with three times its charges. Its server sends as many bytes
  // of the newer as the older has, then holds the rest back until the test lets it go, as a large
  // file's read lasts an hour. (Both are larger than the 64 KB a reader looks at before it begins.)
  const charges = (count: number) =>
    Array.from(
      { length: count },
      (_, i) =>
        `Visit ${i},${10000 + i},CPT,outpatient,200,180,Platform Health Insurance,PPO,90,90,90,fee schedule\r\n`,
    ).join('');
  const hospital = vermontHospital('Slow File Test Hospital', 'VT-SLOW');
  const text = `${hospital}${charges(800)}`;
  const newer = `${hospital.replace(',2026-04-01,', ',2026-05-01,')}${charges(2400)}`;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const files: Record<string, Buffer> = { '/slow.csv': Buffer.from(text) };
  const server = await serveFiles(files, { holdBack: { after: text.length, until: released } });
  try {
    expect((await ingest(server.url('/slow.csv'))).result).toMatchObject({ status: 'loaded' });
    files['/slow.csv'] = Buffer.from(newer);

    const admin = uniqueEmail('admin-slow');
    await createAdmin(admin);
    await signIn(page, admin);
    await page.goto('/inventoryList?state=VT');
    await page.getByRole('link', { name: 'Slow File Test Hospital', exact: true }).click();
    const section = page.getByRole('region', { name: 'Newer file (administrators)' });
    await section.getByRole('button', { name: 'Read its file again now' }).click();
    await expect(section.getByRole('status')).toHaveText(
      'The background worker is reading the file: the files above show how far it is.',
      { timeout: 30_000 },
    );
    const cards = page.locator('.mantine-Card-root').filter({
      has: page.getByRole('heading', { name: 'slow.csv', exact: true }),
    });
    await expect(cards.nth(0)).toContainText('Loading');
    const bar = cards.nth(0).getByRole('progressbar', {
      name: 'How much of the file has been read',
    });
    await expect(bar).toBeVisible();
    const percent = Math.floor((text.length / newer.length) * 100);
    // The ingest writes how far it is every 2 s, and the page asks every 5 s.
    await expect(bar).toHaveAttribute('aria-valuenow', String(percent), { timeout: 15_000 });
    await expect(section.getByRole('button', { name: 'Read its file again now' })).toBeDisabled();
    await expectAccessible(page);

    // The rest of the file arrives: the page, asking again while it loads, shows it in use.
    release();
    await expect(section.getByRole('status')).toHaveText(
      'Read again: the files above show the result.',
      { timeout: 30_000 },
    );
    await expect(cards.nth(0)).toContainText('In use');
    await expect(cards.nth(0)).toContainText('2,401 charges');
    await expect(cards.nth(0).getByRole('progressbar')).toHaveCount(0);
  } finally {
    release();
    await server.close();
  }
});
