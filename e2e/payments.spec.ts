import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  adminRequestHeaders,
  createAdmin,
  expectAccessible,
  expectNoPageOverflow,
  signIn,
  signUp,
  uniqueEmail,
} from './support.ts';

// The browser tests' server loads the demo data: Alabama has one hospital file, Alaska several.
// Its payment gateway is the sandbox, which answers as Authorize.Net's sandbox does: card
// 4111111111111111 is approved, billing ZIP 46282 declines, routing number 121042882 with any
// 4–17 digit account is approved.

const PAYMENT_FAILED_TEXT = 'This transaction has been declined.';

/** A coupon made through the catalogue's admin API, as an administrator signed in on `page`. */
async function createCoupon(page: Page, percent: number): Promise<string> {
  const admin = uniqueEmail('admin-coupon');
  await createAdmin(admin);
  await signIn(page, admin);
  const code = `E2E${randomBytes(3).toString('hex').toUpperCase()}`;
  const created = await page.request.post('/api/admin/coupons', {
    headers: await adminRequestHeaders(page),
    data: { code, percent },
  });
  expect(created.ok(), await created.text()).toBe(true);
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  return code;
}

async function chooseState(page: Page, option: string): Promise<void> {
  await page.getByRole('combobox', { name: 'State', exact: true }).click();
  await page.getByRole('option', { name: option }).click();
  await expect(page.getByRole('heading', { name: `Plans for ${option}` })).toBeVisible();
}

const tile = (page: Page, title: string) =>
  page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** On the plans page: Alabama's state plan to the checkout, paid the way `how` names. */
async function checkOutAlabama(page: Page, how: RegExp): Promise<void> {
  const alabama = tile(page, 'State Negotiated Rates');
  await expect(alabama.getByText(/ for Alabama$/)).toBeVisible();
  await alabama.getByRole('button', { name: /^Checkout/ }).click();
  await page
    .getByRole('dialog', { name: 'How do you want to pay?' })
    .getByRole('button', { name: how })
    .click();
}

async function fillBilling(page: Page, zip = '35203'): Promise<void> {
  const billing = page.getByRole('group', { name: 'Billing Address' });
  await billing.getByLabel('First Name').fill('Ann');
  await billing.getByLabel('Last Name').fill('Example');
  await billing.getByLabel('Address').fill('1 Main St');
  await billing.getByLabel('City').fill('Birmingham');
  await billing.getByLabel('State').fill('AL');
  await billing.getByLabel('Zip').fill(zip);
}

async function fillCard(page: Page): Promise<void> {
  await page.getByLabel('Card Type').selectOption('Visa');
  await page.getByLabel('Name on Card').fill('Ann Example');
  await page.getByLabel('Card Number').fill('4111 1111 1111 1111');
  await page.getByLabel('Expiry Date (MM/YYYY)').fill('12/2030');
  await page.getByLabel('CVV').fill('123');
}

async function makePayment(page: Page): Promise<void> {
  const button = page.getByRole('button', { name: 'Make Payment' });
  await expect(button).toBeEnabled();
  await button.click();
}

const totalRow = (page: Page) =>
  page.getByRole('region', { name: 'Order' }).getByRole('row', { name: /^TOTAL/ });

/** Buys plan `subscriptionID` by card through the API, as the user signed in on `page`. */
async function buyByApi(page: Page, request: APIRequestContext, subscriptionID: number) {
  const headers = await adminRequestHeaders(page);
  const userID = await page.evaluate(() => localStorage.getItem('userID'));
  const paid = await request.post('/api/Payment/CardPayment', {
    headers: { ...headers, 'Idempotency-Key': `e2e-${randomBytes(8).toString('hex')}` },
    data: {
      items: [{ subscriptionID, state: '', IsInstalmentPayment: false, userID }],
      paymentDetails: {
        cardType: 'Visa',
        cardName: 'Ann Example',
        cardNumber: '4111111111111111',
        expiryDate: '12/2030',
        cvv: '123',
      },
      billingAddress: {
        firstName: 'Ann',
        lastName: 'Example',
        address: '1 Main St',
        city: 'Birmingham',
        state: 'AL',
        zipcode: '35203',
        email: 'ann@example.com',
      },
    },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
}

/** The code of the newest donation e-mail to `to`, read from the outbox as it arrives. */
async function donationCode(request: APIRequestContext, to: string): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/outbox.json?to=${encodeURIComponent(to)}`);
        const messages = (await response.json()) as { subject: string }[];
        code = /donation code: (\d{4})/.exec(messages[0]?.subject ?? '')?.[1] ?? '';
        return code;
      },
      { message: `a donation code e-mailed to ${to}` },
    )
    .toMatch(/^\d{4}$/);
  return code;
}

/** From the footer's Donate to /donation: the e-mail, then the code typed into its four boxes. */
async function confirmDonor(
  page: Page,
  request: APIRequestContext,
  donor: string,
  { checkAccessibility = false, wrongCodeFirst = false } = {},
): Promise<void> {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('button', { name: 'Donate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Donate to RateLens' });
  await expect(dialog.getByLabel('Email')).toBeFocused();
  await dialog.getByLabel('Email').fill(donor);
  await expect(dialog.getByRole('button', { name: 'Send code' })).toBeEnabled();
  if (checkAccessibility) await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Send code' }).click();
  const code = await donationCode(request, donor);

  await expect(dialog.getByRole('textbox', { name: 'Digit 1 of 4' })).toBeFocused();
  if (checkAccessibility) await expectAccessible(page);
  if (wrongCodeFirst) {
    // A wrong code empties the boxes and gives the first one the focus back for the next try.
    await page.keyboard.type(code === '0000' ? '1111' : '0000');
    await expect(dialog.getByRole('alert')).toContainText('The code is not correct.');
    await expect(dialog.getByRole('textbox', { name: 'Digit 1 of 4' })).toBeFocused();
  }
  // Typed one key at a time: each box hands the focus to the next, the last one verifies.
  await page.keyboard.type(code);
  await expect(page).toHaveURL(/\/donation$/);
}

test.describe('subscriptions and payments', () => {
  test('a user buys a state plan by card with a coupon', async ({ page }) => {
    test.setTimeout(120_000);
    const coupon = await createCoupon(page, 10);
    await signUp(page, uniqueEmail('buyer-card'));

    await page.getByRole('link', { name: 'Subscription', exact: true }).first().click();
    await expect(page).toHaveURL(/\/subscription$/);
    await expect(page.getByRole('heading', { name: 'Plans for Alabama (AL)' })).toBeVisible();
    await expect(tile(page, 'State Negotiated Rates')).toBeVisible();
    await expectAccessible(page);

    await chooseState(page, 'Alaska (AK)');
    const alaska = tile(page, 'State Negotiated Rates');
    await expect(alaska.getByText(/ for Alaska$/)).toBeVisible();
    await alaska.getByRole('button', { name: /^Checkout/ }).click();
    const how = page.getByRole('dialog', { name: 'How do you want to pay?' });
    await expect(how).toBeVisible();
    await expectAccessible(page);
    await how.getByRole('button', { name: /^Pay Once/ }).click();

    await expect(page).toHaveURL(/\/checkout$/);
    const order = page.getByRole('region', { name: 'Order' });
    await expect(order.getByRole('columnheader')).toHaveText([
      'Subscription type',
      'Description',
      'No. of Files/Search',
      'Unit Price(USD)',
      'Total Price(USD)',
      'Final Price(USD)',
      'Installment Cost',
      'Maintenance Fee',
      'Remove',
    ]);
    const line = order.getByRole('row', { name: /State Negotiated Rates \(Alaska\)/ });
    const total = (await line.getByRole('cell').nth(3).textContent()) ?? '';
    const totalCents = Math.round(Number(total.replace(/[$,]/g, '')) * 100);
    expect(totalCents).toBeGreaterThan(0);
    await expect(totalRow(page)).toContainText(total);

    await page.getByLabel('Coupon code').fill(coupon.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(
      page.getByText(`Coupon ${coupon} applied: 10% off annual subscriptions.`),
    ).toBeVisible();
    const discounted = totalCents - Math.floor((totalCents * 10 + 50) / 100);
    const dueToday = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
      discounted / 100,
    );
    await expect(totalRow(page)).toHaveText(`TOTAL${dueToday} due today`);
    await expectAccessible(page);

    // On a 1,024 px tablet the nine columns would leave Remove off to the side: a card instead.
    await page.setViewportSize({ width: 1024, height: 900 });
    await expect(page.getByRole('region', { name: 'Order', exact: true })).toBeHidden();
    const item = page.getByRole('list', { name: 'Order' }).getByRole('listitem');
    await expect(item.getByText('Final Price(USD)')).toBeVisible();
    await expect(item.getByRole('button', { name: /^Remove/ })).toBeInViewport();
    await expectNoPageOverflow(page);
    await page.setViewportSize({ width: 1280, height: 720 });

    await fillCard(page);
    await fillBilling(page);
    await makePayment(page);

    await expect(page).toHaveURL(/\/thankYou$/);
    await expect(page.getByRole('heading', { name: 'Thank you', level: 1 })).toBeVisible();
    await expect(page.getByText(`Your payment of ${dueToday} was received`)).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('link', { name: 'See your subscriptions' }).click();
    const card = page.getByRole('article', { name: 'State Negotiated Rates' });
    await expect(card.getByText('Alaska (Annual)')).toBeVisible();
    await expect(card.getByText('Payment method: Visa ending 1111')).toBeVisible();

    // The cart was emptied: checkout has nothing left to pay for.
    await page.goto('/checkout');
    await expect(page.getByText('Your cart is empty. Choose a subscription to buy.')).toBeVisible();
  });

  test('adding a plan twice says so once, not again when the checkout is reloaded', async ({
    page,
  }) => {
    await signUp(page, uniqueEmail('twice'));
    const alreadyAdded = page.getByText('Subscription is already added to the list');
    for (const visit of [1, 2]) {
      await page.goto('/subscription');
      await checkOutAlabama(page, /^Pay Once/);
      await expect(page).toHaveURL(/\/checkout$/);
      await expect(page.getByRole('heading', { name: 'Your order' })).toBeVisible();
      await expect(alreadyAdded).toHaveCount(visit === 1 ? 0 : 1);
    }
    await page.reload();
    await expect(page.getByRole('row', { name: /State Negotiated Rates \(Alabama\)/ })).toHaveCount(
      1,
    );
    await expect(alreadyAdded).toHaveCount(0);
  });

  test('a user buys a state plan in 12 monthly installments by echeck', async ({ page }) => {
    test.setTimeout(90_000);
    await signUp(page, uniqueEmail('buyer-echeck'));
    await page.goto('/subscription');

    await checkOutAlabama(page, /^Via 12 Months Installment/);

    await expect(page).toHaveURL(/\/checkout$/);
    const line = page
      .getByRole('region', { name: 'Order' })
      .getByRole('row', { name: /State Negotiated Rates \(Alabama\)/ });
    // The twelfth payment takes what rounding leaves, and is said apart when it differs.
    await expect(line).toContainText(
      /(12 monthly payments of \$[\d,.]+|11 monthly payments of \$[\d,.]+, then \$[\d,.]+); the first today/,
    );
    const installment = (await line.getByRole('cell').nth(5).textContent()) ?? '';
    expect(installment).toMatch(/^\$\d/);
    await expect(totalRow(page)).toHaveText(`TOTAL${installment} due today`);

    await page.getByRole('tab', { name: 'Echeck Payment' }).click();
    await page.getByLabel('Routing Number').fill('121042882');
    await page.getByLabel('Account Number').fill('123456789');
    await page.getByLabel('Account Holder Name').fill('Ann Example');
    await page.getByLabel('Bank Name').fill('Wells Fargo');
    await page.getByRole('radio', { name: 'Savings' }).check();
    await fillBilling(page);
    await expectAccessible(page);
    await makePayment(page);

    await expect(page).toHaveURL(/\/thankYou$/);
    await page.goto('/profile');
    const card = page.getByRole('article', { name: 'State Negotiated Rates' });
    await expect(card.getByText('Alabama (Annual)')).toBeVisible();
    await expect(card.getByText('Paid in 12 monthly installments')).toBeVisible();
  });

  test('a 100% coupon completes the order without a payment', async ({ page }) => {
    test.setTimeout(120_000);
    const coupon = await createCoupon(page, 100);
    await signUp(page, uniqueEmail('buyer-free'));
    await page.goto('/subscription');

    await checkOutAlabama(page, /^Pay Once/);
    await expect(page).toHaveURL(/\/checkout$/);

    await page.getByLabel('Coupon code').fill(coupon);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(totalRow(page)).toHaveText('TOTAL$0.00 due today');
    await expect(
      page.getByText(
        'No payment is needed: the coupon covers the whole order. Nothing is charged.',
      ),
    ).toBeVisible();
    await expect(page.getByLabel('Card Number')).toHaveCount(0);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Complete Order' }).click();

    await expect(page).toHaveURL(/\/thankYou$/);
    await expect(
      page.getByText(
        'Your order is complete, and your subscription is active. Nothing was charged.',
      ),
    ).toBeVisible();
    await page.getByRole('link', { name: 'See your subscriptions' }).click();
    const card = page.getByRole('article', { name: 'State Negotiated Rates' });
    await expect(card.getByText('Alabama (Annual)')).toBeVisible();
    // No payment method was given, so nothing renews it by itself.
    await expect(card.getByText('No saved payment method')).toBeVisible();
    await expect(card.getByRole('switch', { name: 'Auto-renewal' })).not.toBeChecked();
  });

  test('a declined card keeps the cart and the user recovers with the right billing ZIP', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signUp(page, uniqueEmail('buyer-declined'));
    await page.goto('/subscription');
    const pack = tile(page, 'Individual Search 5');
    await pack.getByRole('button', { name: /^Checkout/ }).click();
    await expect(page).toHaveURL(/\/checkout$/);

    await fillCard(page);
    await fillBilling(page, '46282');
    await makePayment(page);

    const failure = page.getByRole('alert').filter({ hasText: PAYMENT_FAILED_TEXT });
    await expect(failure).toBeVisible();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(
      page.getByRole('region', { name: 'Order' }).getByRole('row', { name: /Individual Search 5/ }),
    ).toBeVisible();
    // 800 ms after the answer the page is back at the top, with the message focused.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expectAccessible(page);

    await page.getByRole('group', { name: 'Billing Address' }).getByLabel('Zip').fill('35203');
    await makePayment(page);
    await expect(page).toHaveURL(/\/thankYou$/);
    await page.goto('/profile');
    await expect(page.getByRole('article', { name: 'Individual Search 5' })).toBeVisible();
  });

  test('a subscriber turns auto-renewal off and on from the profile', async ({ page, request }) => {
    test.setTimeout(90_000);
    await signUp(page, uniqueEmail('renewer'));
    // Individual Search 5 (plan 5) bought by card: its card is kept for renewals, which start on.
    await buyByApi(page, request, 5);

    await page.goto('/profile');
    const card = page.getByRole('article', { name: 'Individual Search 5' });
    const toggle = card.getByRole('switch', { name: 'Auto-renewal' });
    await expect(toggle).toBeChecked();
    await expectAccessible(page);

    await toggle.click({ force: true });
    await expect(toggle).not.toBeChecked();
    await expect(
      card.getByText('Your subscription auto-renewal for Individual Search has been deactivated.'),
    ).toBeVisible();

    await page.reload();
    await expect(toggle).not.toBeChecked();
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect(
      card.getByText('Your subscription auto-renewal for Individual Search has been activated.'),
    ).toBeVisible();
    await expect(toggle).toBeChecked();
  });

  test('a visitor donates after confirming an e-mail with a one-time code', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const donor = uniqueEmail('donor');
    await confirmDonor(page, request, donor, { checkAccessibility: true, wrongCodeFirst: true });
    await expect(
      page.getByRole('heading', { name: 'Help us fight the high cost of healthcare', level: 1 }),
    ).toBeVisible();
    const pay = page.getByRole('button', { name: 'Make Payment' });
    await page.getByLabel('Amount (USD)').fill('025');
    await fillCard(page);
    await fillBilling(page);
    await expect(pay).toBeDisabled();
    await page.getByLabel('Amount (USD)').fill('25.50');
    await expect(
      page.getByRole('group', { name: 'Billing Address' }).getByLabel('Email'),
    ).toHaveValue(donor);
    await expectAccessible(page);
    await makePayment(page);

    await expect(page).toHaveURL(/\/thankYou$/);
    await expect(
      page.getByText('Your donation of $25.50 was received.', { exact: false }),
    ).toBeVisible();

    // The code was used: the donation page is closed again.
    await page.goto('/donation');
    await expect(page).toHaveURL(/\/$/);
  });

  test.describe('on a 375 px phone', () => {
    test.use({ viewport: { width: 375, height: 800 } });

    test('the plans, checkout and donation screens fit and stay usable', async ({
      page,
      request,
    }) => {
      test.setTimeout(90_000);
      await page.goto('/subscriptionview');
      const popup = page.getByRole('dialog', { name: 'See our plans' });
      await expect(popup).toBeVisible();
      await popup.getByLabel('Name').fill('Ann');
      await popup.getByLabel('Email').fill(uniqueEmail('lead'));
      await expectAccessible(page);
      await popup.getByRole('button', { name: 'Submit' }).click();
      await expect(popup).toBeHidden();
      // Open since the page loaded, it gives the focus to the page, not to <body>.
      await expect(page.getByRole('main')).toBeFocused();
      await expect(tile(page, 'State Negotiated Rates')).toBeVisible();
      await expectNoPageOverflow(page);
      await expectAccessible(page);

      await tile(page, 'Individual Search 5')
        .getByRole('button', { name: /^Checkout/ })
        .click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText('Please create account or sign in to purchase.')).toBeVisible();

      await signUp(page, uniqueEmail('phone'));
      await page.goto('/subscription');
      await expect(tile(page, 'Individual Search 5')).toBeVisible();
      await expectNoPageOverflow(page);
      await expectAccessible(page);
      await tile(page, 'Individual Search 5')
        .getByRole('button', { name: /^Checkout/ })
        .click();

      await expect(page).toHaveURL(/\/checkout$/);
      // On a phone the order is a list of cards, each with its figures and Remove.
      const item = page.getByRole('list', { name: 'Order' }).getByRole('listitem');
      await expect(item).toHaveCount(1);
      await expect(item.getByText('Final Price(USD)')).toBeVisible();
      await expect(page.getByText(/^\$9\.99 due today$/).filter({ visible: true })).toBeVisible();
      await expectNoPageOverflow(page);
      await expectAccessible(page);
      await item.getByRole('button', { name: /^Remove/ }).click();
      await expect(
        page.getByText('Your cart is empty. Choose a subscription to buy.'),
      ).toBeVisible();

      await page.goto('/logout');
      await confirmDonor(page, request, uniqueEmail('phone-donor'));
      await page.getByLabel('Amount (USD)').fill('10');
      await expect(page.getByRole('tab', { name: 'Echeck Payment' })).toBeVisible();
      await expectNoPageOverflow(page);
      await expectAccessible(page);
    });
  });
});
