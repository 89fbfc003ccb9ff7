// @vitest-environment jsdom
import { PAYMENT_MESSAGES } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useEffect } from 'react';
import { Route, Routes, useLocation, type InitialEntry, type Location } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../features/auth/session.ts';
import { addToCart, clearCart, readCart } from '../features/subscriptions/cart.ts';
import { stubApi, type Answer } from '../test/api-stub.ts';
import { fillBilling, fillCard, fillEcheck, makePayment } from '../test/payment-form.ts';
import { MONTHLY_PLAN, approved, declined, plan, searchPack } from '../test/payments-fixtures.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { callsTo, sentJson } from '../test/search-api-stub.ts';
import { signInAs } from '../test/sign-in.ts';
import type { CheckoutArrival } from '../features/subscriptions/use-plan-checkout.ts';
import { CheckoutRoute } from './checkout.tsx';

const USER = 'user-1';
const PACK = searchPack(5, 5, 999);
const PLANS = [plan(), MONTHLY_PLAN, PACK];
const COUPONS: Record<string, number> = { SAVE10: 10, SAVE33: 33, FREE100: 100 };
/** $25.00 (one file): 12 installments of $2.08 would leave 4 cents over, so the 12th is $2.12. */
const ONE_FILE = plan({ totalFilesCountSpecificState: 1, totalPriceCents: 2500, totalPrice: 25 });

function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location">{`${location.pathname} ${JSON.stringify(location.state)}`}</output>
  );
}

function stubCheckoutApi(answers: Record<string, Answer> = {}) {
  return stubApi({
    '/api/Master/getsubscriptionbyid': (url) => {
      const id = Number(url.searchParams.get('subscriptionid'));
      const found = PLANS.find((item) => item.subscriptionID === id);
      return found ? jsonResponse(200, found) : jsonResponse(404, { message: 'No plan.' });
    },
    '/api/Master/getallcoupons': (url) => {
      const code = url.searchParams.get('cupon') ?? '';
      const percent = COUPONS[code];
      return jsonResponse(
        200,
        percent === undefined
          ? []
          : [{ couponID: 1, couponCode: code, couponDiscountPerc: percent }],
      );
    },
    '/api/Payment/CardPayment': jsonResponse(200, approved(7500)),
    '/api/Payment/CeckPayment': jsonResponse(200, approved(1125)),
    ...answers,
  });
}

function renderCheckout() {
  renderWithProviders(
    <Routes>
      <Route path="/checkout" element={<CheckoutRoute />} />
      <Route path="/thankYou" element={<LocationProbe />} />
      <Route path="/login" element={<LocationProbe />} />
    </Routes>,
    { route: '/checkout' },
  );
}

const order = () => within(screen.getByRole('region', { name: 'Order' }));
const totalRow = () => order().getByRole('row', { name: /^TOTAL/ });
const alertText = () => screen.getAllByRole('alert').map((alert) => alert.textContent);
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((td) => td.textContent);

async function applyCoupon(code: string) {
  fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
  await screen.findByText(new RegExp(`^Coupon ${code} applied`));
}

beforeEach(() => signInAs('user'));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  clearCart();
  clearSession();
});

describe('CheckoutRoute order', () => {
  it('sends a visitor without a token to /login', async () => {
    clearSession();
    stubCheckoutApi();
    renderCheckout();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toMatch(/^\/login/));
  });

  it('says so when the cart is empty, with Add More back to the plans', () => {
    stubCheckoutApi();
    renderCheckout();

    expect(screen.getByText('Your cart is empty. Choose a subscription to buy.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add More' }).getAttribute('href')).toBe(
      '/subscription',
    );
    expect(screen.queryByRole('button', { name: 'Make Payment' })).toBeNull();
  });

  it('says a plan was added twice on arrival only, not again when the page is reloaded', async () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    // The history entries the page has been at, the latest last.
    const entries: Location[] = [];
    function EntryProbe() {
      const location = useLocation();
      useEffect(() => void entries.push(location), [location]);
      return null;
    }
    const renderAt = (route: InitialEntry) =>
      renderWithProviders(
        <Routes>
          <Route
            path="/checkout"
            element={
              <>
                <CheckoutRoute />
                <EntryProbe />
              </>
            }
          />
        </Routes>,
        { route },
      );
    const arrival: CheckoutArrival = { notice: PAYMENT_MESSAGES.alreadyInCart };
    renderAt({ pathname: '/checkout', state: arrival });
    expect(screen.getByText(PAYMENT_MESSAGES.alreadyInCart)).toBeTruthy();
    // The history entry a reload reads again no longer carries the notice.
    await waitFor(() => expect(entries.at(-1)?.state).toBeNull());
    expect(screen.getByText(PAYMENT_MESSAGES.alreadyInCart)).toBeTruthy();

    cleanup();
    renderAt(entries.at(-1) ?? '/checkout');
    expect(screen.getByRole('heading', { name: 'Your order' })).toBeTruthy();
    expect(screen.queryByText(PAYMENT_MESSAGES.alreadyInCart)).toBeNull();
  });

  it('shows every column of the spec and the TOTAL due today', async () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: true, stateId: 1 });
    addToCart(USER, { plan: PACK, installment: false, stateId: null });
    renderCheckout();

    expect(
      order()
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
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
    const stateRow = order().getByRole('row', { name: /State Negotiated Rates \(Alabama\)/ });
    expect(
      within(stateRow)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['Annual', '3 files', '$25.00', '$75.00', '$75.00', '$11.25', '$5.00', 'Remove']);
    // The first installment ($75.00 ÷ 12 + $5.00) and the search pack are due today.
    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$21.24 due today'));
  });

  it('names the order table for screen readers', () => {
    stubCheckoutApi();
    addToCart(USER, { plan: PACK, installment: false, stateId: null });
    renderCheckout();

    expect(
      order().getByRole('table', {
        name: 'Your order: each subscription with its prices, and the total due today',
      }),
    ).toBeTruthy();
  });

  it('removes an item and recomputes the TOTAL', async () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    addToCart(USER, { plan: PACK, installment: false, stateId: null });
    renderCheckout();

    fireEvent.click(order().getByRole('button', { name: 'Remove Individual Search 5 (National)' }));

    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$75.00 due today'));
    expect(readCart(USER).lines).toHaveLength(1);
  });

  it('takes the keyboard to the order heading when Remove takes itself away', async () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    addToCart(USER, { plan: PACK, installment: false, stateId: null });
    renderCheckout();

    const remove = order().getByRole('button', { name: 'Remove Individual Search 5 (National)' });
    remove.focus();
    fireEvent.click(remove);

    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$75.00 due today'));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your order' }));
  });

  it('shows a custom offer as one offer at its agreed total, naming the files it covers', async () => {
    stubCheckoutApi();
    const offer = plan({ customOfferId: 7, priceCents: 5000, totalPriceCents: 5000 });
    addToCart(USER, { plan: offer, installment: false, stateId: 1 });
    renderCheckout();

    const row = order().getByRole('row', { name: /custom offer/ });
    // Quantity × unit price = total price.
    expect(cellsOf(row).slice(0, 4)).toEqual(['Annual', '1 offer (3 files)', '$50.00', '$50.00']);
    const card = within(screen.getByRole('list', { name: 'Order' })).getByRole('listitem');
    expect(card.textContent).toContain('1 offer (3 files)');
    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$50.00 due today'));
  });

  it('says the twelfth installment as it is when the price does not divide by 12', async () => {
    stubCheckoutApi({ '/api/Master/getsubscriptionbyid': jsonResponse(200, ONE_FILE) });
    addToCart(USER, { plan: ONE_FILE, installment: true, stateId: 1 });
    renderCheckout();

    // $25.00 ÷ 12 = $2.08 (× 11) and $2.12, each with the $5.00 maintenance fee.
    const row = order().getByRole('row', { name: /State Negotiated Rates \(Alabama\)/ });
    expect(
      within(row).getByText('11 monthly payments of $7.08, then $7.12; the first today'),
    ).toBeTruthy();
    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$7.08 due today'));
  });

  it('says 12 equal payments when the price divides by 12', () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: true, stateId: 1 });
    renderCheckout();

    const row = order().getByRole('row', { name: /State Negotiated Rates \(Alabama\)/ });
    expect(within(row).getByText('12 monthly payments of $11.25; the first today')).toBeTruthy();
  });

  it('shows the price the catalogue gives now, not the one stored with the cart', async () => {
    stubCheckoutApi({
      '/api/Master/getsubscriptionbyid': jsonResponse(
        200,
        plan({ totalFilesCountSpecificState: 4, totalPriceCents: 10000, totalPrice: 100 }),
      ),
    });
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    renderCheckout();

    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$100.00 due today'));
  });
});

describe('CheckoutRoute coupon', () => {
  it('applies a coupon to annual items only', async () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    addToCart(USER, { plan: PACK, installment: false, stateId: null });
    renderCheckout();

    fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: 'SAVE10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));

    expect(
      await screen.findByText('Coupon SAVE10 applied: 10% off annual subscriptions.'),
    ).toBeTruthy();
    // $75.00 − 10% = $67.50, plus the $9.99 pack.
    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$77.49 due today'));
  });

  it('takes the keyboard to the coupon field when its Remove button takes itself away', async () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    renderCheckout();
    fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: 'SAVE10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));

    const remove = await screen.findByRole('button', { name: 'Remove coupon SAVE10' });
    remove.focus();
    fireEvent.click(remove);

    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Remove coupon SAVE10' })).toBeNull(),
    );
    expect(document.activeElement).toBe(screen.getByLabelText('Coupon code'));
  });

  it('shows what the coupon takes off today for installments, so the lines add up to the TOTAL', async () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: true, stateId: 1 });
    addToCart(USER, { plan: PACK, installment: false, stateId: null });
    renderCheckout();

    await applyCoupon('SAVE33');

    // Before: $6.25 + $5.00 fee + the $9.99 pack. The coupon takes 33% of $75.00 ($24.75) off
    // the year, $2.06 of it off the first installment ($6.25 → $4.19).
    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$19.18 due today'));
    expect(order().getByRole('row', { name: /^Before the coupon/ }).textContent).toBe(
      'Before the coupon$21.24 due today',
    );
    expect(order().getByRole('row', { name: /^Coupon SAVE33/ }).textContent).toBe(
      'Coupon SAVE33: 33% off annual subscriptions−$2.06 today (−$24.75 in all)',
    );
  });

  it('shows the whole discount as taken off today when every annual item is paid once', async () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    renderCheckout();

    await applyCoupon('SAVE10');

    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$67.50 due today'));
    expect(order().getByRole('row', { name: /^Coupon SAVE10/ }).textContent).toBe(
      'Coupon SAVE10: 10% off annual subscriptions−$7.50 today',
    );
  });

  it('takes the applied message away, saying why, when removing the last annual item drops the coupon', async () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    addToCart(USER, { plan: PACK, installment: false, stateId: null });
    renderCheckout();
    await applyCoupon('SAVE10');

    fireEvent.click(
      order().getByRole('button', { name: 'Remove State Negotiated Rates (Alabama)' }),
    );

    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$9.99 due today'));
    expect(screen.queryByText(/^Coupon SAVE10 applied/)).toBeNull();
    expect(
      screen.getByText(
        'Coupon SAVE10 was removed: it applies to annual subscriptions, and none is left in the order.',
      ),
    ).toBeTruthy();
  });

  it('refuses a coupon when the cart holds no annual subscription, without asking', async () => {
    const fetchMock = stubCheckoutApi();
    addToCart(USER, { plan: PACK, installment: false, stateId: null });
    renderCheckout();

    fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: 'SAVE10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));

    expect(await screen.findByText(PAYMENT_MESSAGES.couponAnnualOnly)).toBeTruthy();
    expect(callsTo(fetchMock, '/api/Master/getallcoupons')).toHaveLength(0);
  });

  it('says an unknown code is invalid and takes the discount back to 0', async () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    renderCheckout();

    fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: 'SAVE10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$67.50 due today'));

    fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: 'NOPE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));

    expect(await screen.findByText(PAYMENT_MESSAGES.couponInvalid)).toBeTruthy();
    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$75.00 due today'));
  });
});

describe('CheckoutRoute payment', () => {
  it('pays by card with plan ids, the coupon and the TOTAL shown, then empties the cart', async () => {
    const fetchMock = stubCheckoutApi({
      '/api/Payment/CardPayment': jsonResponse(200, approved(6750)),
    });
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    renderCheckout();
    fireEvent.change(screen.getByLabelText('Coupon code'), { target: { value: 'SAVE10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$67.50 due today'));

    fillCard();
    fillBilling();
    await makePayment();

    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        '/thankYou {"kind":"subscription","amountCents":6750,"orderId":"order-1"}',
      ),
    );
    const [call] = callsTo(fetchMock, '/api/Payment/CardPayment');
    expect(sentJson(call)).toEqual({
      items: [
        {
          subscriptionID: 1,
          state: 'AL',
          IsInstalmentPayment: false,
          customOfferId: null,
          userID: USER,
        },
      ],
      couponCode: 'SAVE10',
      expectedAmountCents: 6750,
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
    });
    expect((call?.init?.headers as Record<string, string>)['Idempotency-Key']).toMatch(
      /^[A-Za-z0-9_-]{8,100}$/,
    );
    expect(readCart(USER).lines).toEqual([]);
  });

  it('completes an order a 100% coupon covers without asking for a card or account', async () => {
    const fetchMock = stubCheckoutApi({
      '/api/Payment/FreeOrder': jsonResponse(200, { ...approved(0), orderId: 'order-free' }),
    });
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    renderCheckout();

    await applyCoupon('FREE100');
    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$0.00 due today'));
    expect(
      screen.getByText(
        'No payment is needed: the coupon covers the whole order. Nothing is charged.',
      ),
    ).toBeTruthy();
    expect(screen.queryByLabelText(/^Card Number/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Make Payment' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Complete Order' }));

    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        '/thankYou {"kind":"subscription","amountCents":0,"orderId":"order-free"}',
      ),
    );
    const [call] = callsTo(fetchMock, '/api/Payment/FreeOrder');
    expect(sentJson(call)).toEqual({
      items: [
        {
          subscriptionID: 1,
          state: 'AL',
          IsInstalmentPayment: false,
          customOfferId: null,
          userID: USER,
        },
      ],
      couponCode: 'FREE100',
      expectedAmountCents: 0,
    });
    expect((call?.init?.headers as Record<string, string>)['Idempotency-Key']).toMatch(
      /^[A-Za-z0-9_-]{8,100}$/,
    );
    expect(callsTo(fetchMock, '/api/Payment/CardPayment')).toHaveLength(0);
    expect(readCart(USER).lines).toEqual([]);
  });

  it('asks for a payment when a 100% coupon leaves installment maintenance fees due', async () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: true, stateId: 1 });
    renderCheckout();

    await applyCoupon('FREE100');

    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$5.00 due today'));
    expect(screen.getByRole('button', { name: 'Make Payment' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Complete Order' })).toBeNull();
  });

  it('changes the CVV hint to the 4 digits on the front when American Express is chosen', () => {
    stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    renderCheckout();
    const cvv = screen.getByLabelText(/^CVV/);
    const hint = () => document.getElementById(cvv.getAttribute('aria-describedby') ?? '');
    expect(hint()?.textContent).toBe('3 digits code on back side of the card');

    fireEvent.change(screen.getByLabelText(/^Card Type/), {
      target: { value: 'American Express' },
    });

    expect(hint()?.textContent).toBe('4 digits code on front side of the card');
  });

  it('pays in installments by echeck', async () => {
    const fetchMock = stubCheckoutApi();
    addToCart(USER, { plan: plan(), installment: true, stateId: 1 });
    renderCheckout();

    fillEcheck();
    fillBilling();
    await makePayment();

    await waitFor(() => expect(screen.getByTestId('location').textContent).toMatch(/^\/thankYou/));
    expect(sentJson(callsTo(fetchMock, '/api/Payment/CeckPayment')[0])).toMatchObject({
      items: [{ subscriptionID: 1, IsInstalmentPayment: true }],
      expectedAmountCents: 1125,
      paymentDetails: { routingNumber: '121042882', accountType: 'Checking' },
    });
  });

  it('blocks the page while paying and sends one request for a double click', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = stubCheckoutApi({
      '/api/Payment/CardPayment': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    renderCheckout();
    fillCard();
    fillBilling();

    await makePayment();
    fireEvent.click(screen.getByRole('button', { name: 'Make Payment' }));

    const dialog = await screen.findByRole('dialog', { name: 'Payment in progress' });
    expect(within(dialog).getByText(PAYMENT_MESSAGES.paymentInProgress)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Make Payment', hidden: true })).toHaveProperty(
      'disabled',
      true,
    );
    await waitFor(() => expect(callsTo(fetchMock, '/api/Payment/CardPayment')).toHaveLength(1));

    answer(jsonResponse(200, approved(7500)));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toMatch(/^\/thankYou/));
  });

  it('keeps the cart after a decline, shows its text and scrolls to the top 800 ms later', async () => {
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    stubCheckoutApi({
      '/api/Payment/CardPayment': jsonResponse(
        200,
        declined('This transaction has been declined.'),
      ),
    });
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    renderCheckout();
    fillCard();
    fillBilling('46282');

    await makePayment();

    await waitFor(() => expect(alertText()).toContain('This transaction has been declined.'));
    expect(scrollTo).not.toHaveBeenCalled();
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' }), {
      timeout: 2000,
    });
    expect(readCart(USER).lines).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Make Payment' })).toHaveProperty('disabled', false);
  });

  it("retries a payment whose outcome is unknown with the same key, and a decline's with a new one", async () => {
    vi.stubGlobal('scrollTo', vi.fn());
    const answers = [
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => Promise.resolve(jsonResponse(200, declined('This transaction has been declined.'))),
      () => Promise.resolve(jsonResponse(200, approved(7500))),
    ];
    const fetchMock = stubCheckoutApi({
      '/api/Payment/CardPayment': () => {
        const next = answers.shift();
        if (!next) throw new Error('too many payments');
        return next();
      },
    });
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    renderCheckout();
    fillCard();
    fillBilling();

    await makePayment();
    await waitFor(() => expect(alertText()).toContain(PAYMENT_MESSAGES.paymentFailed));
    await makePayment();
    await waitFor(() => expect(alertText()).toContain('This transaction has been declined.'));
    await makePayment();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toMatch(/^\/thankYou/));

    const keys = callsTo(fetchMock, '/api/Payment/CardPayment').map(
      (call) => (call.init?.headers as Record<string, string>)['Idempotency-Key'],
    );
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('shows a refusal for a changed price and reads the prices again', async () => {
    vi.stubGlobal('scrollTo', vi.fn());
    let files = 3;
    stubCheckoutApi({
      '/api/Master/getsubscriptionbyid': () =>
        jsonResponse(
          200,
          plan({ totalFilesCountSpecificState: files, totalPriceCents: files * 2500 }),
        ),
      '/api/Payment/CardPayment': () => {
        files = 4;
        return jsonResponse(409, {
          message:
            'The total of your order is now $100.00. Please review it and make the payment again.',
        });
      },
    });
    addToCart(USER, { plan: plan(), installment: false, stateId: 1 });
    renderCheckout();
    fillCard();
    fillBilling();

    await makePayment();

    await waitFor(() =>
      expect(alertText()).toContain(
        'The total of your order is now $100.00. Please review it and make the payment again.',
      ),
    );
    await waitFor(() => expect(totalRow().textContent).toBe('TOTAL$100.00 due today'));
  });
});
