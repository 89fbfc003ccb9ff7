import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import {
  adminRequestHeaders,
  createAdmin,
  expectAccessible,
  expectNoPageOverflow,
  linkFromOutbox,
  signIn,
  signUp,
  uniqueEmail,
} from './support.ts';

// The browser tests' server starts on an empty database and loads the demo data: Alaska's four
// metro areas hold fictional hospitals whose files price, among others, 70551 (MRI of the brain),
// 70553 and 70450 (CT of the head) for outpatients.

const FREE_SEARCHES_OVER =
  'Your 2 free medical code searches for every 60 days is over. Please try again later.';
const FOOTER_NOTICE =
  'Hospitals can change their prices without notice. Always get a Good Faith Estimate first to lock in your rate.';

async function choose(page: Page, label: string, option: string | RegExp): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
}

/**
 * Types a code into the code box and picks the option that starts with '(code)', with the mouse
 * or, with `keyboard`, by arrow keys and Enter.
 */
async function chooseCode(page: Page, code: string, { keyboard = false } = {}): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Medical Code / Code Description' });
  await box.fill(code);
  const option = page.getByRole('option', { name: new RegExp(`^\\(${code}\\) `) }).first();
  await expect(option).toBeVisible();
  if (keyboard) {
    await box.press('ArrowDown');
    await expect(box).toHaveAttribute('aria-activedescendant', /.+/);
    await box.press('Enter');
  } else {
    await option.click();
  }
  await expect(box).toHaveValue(new RegExp(`^\\(${code}\\) `));
}

async function fillSearch(page: Page, code: string): Promise<void> {
  await choose(page, 'State', 'Alaska (AK)');
  await choose(page, 'Metro Area', 'Anchorage, AK');
  await chooseCode(page, code);
  await choose(page, 'Billing Class', 'Outpatient');
}

/** The family-status popup: Family, $500 spent this year. */
async function answerFamilyPopup(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Your coverage' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: 'Family' }).check();
  await dialog.getByLabel('YTD medical spend ($)').fill('500');
  await dialog.getByRole('button', { name: 'Get Rates' }).click();
}

const getRatesButton = (page: Page) =>
  page.getByRole('form', { name: 'Rate search' }).getByRole('button', { name: 'Get Rates' });

async function expectResults(page: Page, code: string): Promise<void> {
  await expect(page).toHaveURL(/\/ooprates$/);
  await expect(page.getByRole('heading', { name: 'Out-of-pocket rates', level: 1 })).toBeVisible();
  const table = page.getByRole('region', { name: 'Negotiated rates' }).getByRole('table');
  await expect(
    table.getByRole('columnheader', { name: 'Code Description/Hospital' }),
  ).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Negotiate Rate ($)' })).toBeVisible();
  await expect(
    table.getByRole('rowheader', { name: new RegExp(`^\\(${code}\\) `) }).first(),
  ).toBeVisible();
  // The keyboard and the screen reader are taken to the results, not left at the top.
  await expect(page.getByRole('heading', { name: 'Results', level: 2, exact: true })).toBeFocused();
}

test.describe('rate search', () => {
  test('signed out: an overlay blocks the search and offers sign-up and sign-in', async ({
    page,
  }) => {
    await page.goto('/');
    const popup = page.getByRole('group', { name: 'Please create an account or login first' });
    await expect(popup).toBeVisible();
    await expect(popup.getByRole('link', { name: 'Create New Account' })).toHaveAttribute(
      'href',
      '/registration',
    );
    await expect(popup.getByRole('link', { name: 'Already have a account' })).toHaveAttribute(
      'href',
      '/login',
    );
    // The blocked fields are out of reach: disabled, and inert under the overlay.
    const state = page.getByRole('combobox', { name: 'State', exact: true });
    await expect(state).toBeDisabled();
    expect(await state.evaluate((element) => element.closest('[inert]') !== null)).toBe(true);
    await expectAccessible(page);

    await page.goto('/ooprates');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a consumer searches, sees out-of-pocket estimates, downloads and texts the report, and is refused a third free search', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail('consumer');
    await signUp(page, email);

    // Nothing saved yet: the results page sends the visitor home.
    await page.goto('/ooprates');
    await expect(page).toHaveURL(/\/$/);

    await expect(getRatesButton(page)).toBeDisabled();
    const codeBox = page.getByRole('combobox', { name: 'Medical Code / Code Description' });
    await expect(codeBox).toBeDisabled();
    await fillSearch(page, '70551');
    await expectAccessible(page);
    await getRatesButton(page).click();
    await answerFamilyPopup(page);

    await expectResults(page, '70551');
    await expect(
      page.getByRole('columnheader', { name: 'Your estimated out-of-pocket ($)' }),
    ).toBeVisible();
    await expect(page.getByText(/^Coverage: family, with a deductible of/)).toBeVisible();
    await expect(page.getByText(/Your \$500\.00 spent so far this year/)).toBeVisible();
    // Alaska Medicaid's fee-for-service rate gets no estimate, and the assumptions say why.
    const medicaid = page
      .getByRole('region', { name: 'Negotiated rates' })
      .getByRole('row', { name: /^Alaska Medicaid Fee for Service/ })
      .first();
    await expect(medicaid.getByRole('cell').nth(1)).toHaveText('Not estimated');
    await expect(
      page.getByText(/^Estimates are for commercial and marketplace plans\./),
    ).toBeVisible();
    await expect(page.getByText(/^(Published in dollars|Derived from )/).first()).toBeVisible();
    await expect(
      page.getByRole('figure', { name: /^Rates by hospital for \(70551\)/ }),
    ).toBeVisible();
    await expect(page.getByText(FOOTER_NOTICE)).toBeVisible();
    await expectAccessible(page);

    // Download: an .xlsx named by the server, not empty.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const saved = await download.path();
    const bytes = await readFile(saved);
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');

    // Text me a report: a number no phone has is refused and nothing is sent; a US number typed
    // with its country code and punctuation is sent, and the SMS lands in the outbox with a link
    // to a PDF.
    await page.getByRole('button', { name: 'Text me a report' }).click();
    const phone = page.getByLabel('Mobile number');
    const send = page.getByRole('button', { name: 'Send the report by text message' });
    await phone.fill('1234567890');
    await send.click();
    await expect(page.getByText('Please Enter a Valid Number')).toBeVisible();
    await expect(phone).toHaveValue('1234567890');
    await phone.fill('1 (907) 555-0123');
    await expect(phone).toHaveValue('1 (907) 555-0123');
    await expectAccessible(page);
    await send.click();
    await expect(
      page.getByRole('status').filter({
        hasText:
          /Your report was sent by text message to \+1 \(907\) 555-0123\. The link works until [A-Z][a-z]+ \d{1,2}, \d{4}\./,
      }),
    ).toBeVisible();
    await expect(phone).toHaveCount(0);

    const outbox = await request.get(`/dev/outbox.json?to=${encodeURIComponent('+19075550123')}`);
    const messages = (await outbox.json()) as { channel: string; text: string; sentAt: string }[];
    const newest = [...messages].sort((a, b) => b.sentAt.localeCompare(a.sentAt))[0];
    expect(newest?.channel).toBe('sms');
    const link = /https?:\/\/\S+/.exec(newest?.text ?? '')?.[0];
    expect(link).toBeTruthy();
    const pdf = await request.get(link ?? '');
    expect(pdf.ok()).toBe(true);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 4).toString('latin1')).toBe('%PDF');

    // The second free search, from the results page, by keyboard.
    await chooseCode(page, '70553', { keyboard: true });
    await getRatesButton(page).click();
    await answerFamilyPopup(page);
    await expectResults(page, '70553');

    // The third is refused with the spec's words, and the visitor goes home.
    await chooseCode(page, '70450');
    await getRatesButton(page).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('alert').filter({ hasText: FREE_SEARCHES_OVER })).toBeVisible();
    await expect(page.getByText(/^Your next eligible search begins on /)).toBeVisible();
  });

  test('on a 375 px phone the results are a card per hospital, the out-of-pocket in view', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signUp(page, uniqueEmail('phone'));
    await fillSearch(page, '70551');
    await getRatesButton(page).click();
    await answerFamilyPopup(page);
    await expect(page).toHaveURL(/\/ooprates$/);

    // The table's out-of-pocket column would be off-screen: cards instead.
    await expect(page.getByRole('region', { name: 'Negotiated rates' })).toBeHidden();
    const card = page.getByRole('region', { name: 'Demo Northern Lights Medical Center' });
    const firstPlan = card
      .getByRole('list', { name: /^Plans at / })
      .getByRole('listitem')
      .first();
    const outOfPocket = firstPlan.getByText('Your estimated out-of-pocket ($)');
    await outOfPocket.scrollIntoViewIfNeeded();
    await expect(outOfPocket).toBeInViewport();
    // Its figure is on the same line, inside the screen.
    const figure = await outOfPocket.locator('xpath=following-sibling::*[1]').boundingBox();
    expect(figure).not.toBeNull();
    expect((figure?.x ?? 0) + (figure?.width ?? 0)).toBeLessThanOrEqual(375);
    await expect(outOfPocket.locator('xpath=following-sibling::*[1]')).toHaveText(
      /^\d{1,3}(,\d{3})*\.\d{2}$/,
    );
    await expectNoPageOverflow(page);
    await expectAccessible(page);

    // On a tablet in portrait (768 px) the table takes over, every column inside the screen.
    await page.setViewportSize({ width: 768, height: 1024 });
    const table = page.getByRole('region', { name: 'Negotiated rates' }).getByRole('table');
    await expect(table).toBeVisible();
    const lastColumn = await table
      .getByRole('columnheader', { name: 'How the rate was published' })
      .boundingBox();
    expect((lastColumn?.x ?? 0) + (lastColumn?.width ?? Infinity)).toBeLessThanOrEqual(768);
  });

  test('a table’s region is a stop for the Tab key only while the table is wider than it, and the arrow keys scroll it', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signUp(page, uniqueEmail('keys'));
    await fillSearch(page, '70551');
    await getRatesButton(page).click();
    await answerFamilyPopup(page);
    await expectResults(page, '70551');
    const rates = page.getByRole('region', { name: 'Negotiated rates' });
    const textMe = page.getByRole('button', { name: 'Text me a report' });
    const chartAsTable = page.locator('summary', { hasText: 'The chart as a table' });
    const scrollLeft = (region: typeof rates) => region.evaluate((element) => element.scrollLeft);

    // At 1,280 px the rates table fits: no stop that scrolls nothing, Tab goes on to the chart.
    await expect(rates.getByRole('table')).toBeVisible();
    await expect(rates).not.toHaveAttribute('tabindex');
    await textMe.focus();
    await page.keyboard.press('Tab');
    await expect(chartAsTable).toBeFocused();

    // The region is hidden below 768 px, where the cards take over, and the table fits it from
    // there: squeezed to 375 px, the table is wider than the region and scrolls sideways in it.
    // The region is then a stop, and it is the box that scrolls, so the arrow keys scroll it.
    const squeeze = await page.addStyleTag({
      content: '[role="region"][aria-label="Negotiated rates"] { width: 375px; }',
    });
    await expect(rates).toHaveAttribute('tabindex', '0');
    await expect(rates).toHaveAccessibleName('Negotiated rates');
    await textMe.focus();
    await page.keyboard.press('Tab');
    await expect(rates).toBeFocused();
    expect(await scrollLeft(rates)).toBe(0);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => scrollLeft(rates)).toBeGreaterThan(0);
    await expectAccessible(page);
    // Wide again, it fits: the stop goes.
    await squeeze.evaluate((style) => (style as HTMLStyleElement).remove());
    await expect(rates).not.toHaveAttribute('tabindex');

    // The chart's table, opened, fits at 1,280 px: Tab goes past it.
    await chartAsTable.click();
    const chart = page.getByRole('region', { name: 'Rates by hospital' });
    await expect(chart.getByRole('table')).toBeVisible();
    await expect(chart).not.toHaveAttribute('tabindex');
    // On a 375 px phone it is wider than the screen: it scrolls in its region, a stop for the Tab
    // key that the arrow keys scroll, and the page does not scroll sideways.
    await page.setViewportSize({ width: 375, height: 740 });
    await expect(chart).toHaveAttribute('tabindex', '0');
    await chartAsTable.focus();
    await page.keyboard.press('Tab');
    await expect(chart).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => scrollLeft(chart)).toBeGreaterThan(0);
    await expectNoPageOverflow(page);
    await expectAccessible(page);
  });

  test('an employer member goes straight to the standard results', async ({ page }) => {
    test.setTimeout(90_000);
    const admin = uniqueEmail('admin');
    const employer = uniqueEmail('employer');
    const member = uniqueEmail('member');
    await createAdmin(admin);
    await signIn(page, admin);
    const created = await page.request.post('/api/admin/organisations', {
      headers: await adminRequestHeaders(page),
      data: {
        name: 'Demo Employer',
        accountEmail: employer,
        employerAccess: true,
        ocrAccess: false,
        employerOcr: false,
        memberEmails: [member],
      },
    });
    expect(created.ok(), await created.text()).toBe(true);

    await page.goto('/logout');
    await expect(page).toHaveURL(/\/login$/);
    await signUp(page, member);
    // The employer's access is the member's once the address is shown to be theirs.
    await page.goto(
      await linkFromOutbox(page.request, member, 'Verify your RateLens e-mail address'),
    );
    await expect(page.getByText('Your email has been verified successfully.')).toBeVisible();
    await page.goto('/');
    await fillSearch(page, '70551');
    await getRatesButton(page).click();

    await expect(page.getByRole('dialog', { name: 'Your coverage' })).toHaveCount(0);
    await expectResults(page, '70551');
    await expect(page.getByText(/one person who has spent nothing yet this year/)).toBeVisible();
    await expectAccessible(page);

    // Usable at 375 px: a card per hospital in place of the table, nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 740 });
    await expect(
      page.getByRole('region', { name: 'Demo Northern Lights Medical Center' }),
    ).toBeVisible();
    await expectNoPageOverflow(page);
  });
});
