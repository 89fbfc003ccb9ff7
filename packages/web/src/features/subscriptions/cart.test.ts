// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { plan, searchPack } from '../../test/payments-fixtures.ts';
import {
  CART_STORAGE_KEY,
  addToCart,
  clearCart,
  lineKey,
  readCart,
  removeFromCart,
  setCartCoupon,
} from './cart.ts';

const COUPON = { couponID: 1, couponCode: 'SAVE10', couponDiscountPerc: 10 };

afterEach(() => localStorage.clear());

describe('cart', () => {
  it('adds a plan once: the same plan for the same state is a duplicate', () => {
    expect(addToCart('ann', { plan: plan(), installment: false, stateId: 1 })).toBe('added');
    expect(addToCart('ann', { plan: plan(), installment: true, stateId: 1 })).toBe('duplicate');
    expect(
      addToCart('ann', {
        plan: plan({ stateCode: 'AK', filterStates: 'Alaska' }),
        installment: false,
        stateId: 2,
      }),
    ).toBe('added');
    expect(readCart('ann').lines).toHaveLength(2);
  });

  it('belongs to the account that filled it', () => {
    addToCart('ann', { plan: plan(), installment: false, stateId: 1 });
    expect(readCart('bob').lines).toEqual([]);
  });

  it('drops the coupon with the last annual item', () => {
    addToCart('ann', { plan: plan(), installment: false, stateId: 1 });
    addToCart('ann', { plan: searchPack(5, 5, 999), installment: false, stateId: null });
    setCartCoupon('ann', COUPON);

    removeFromCart('ann', lineKey(plan()));

    expect(readCart('ann')).toEqual({
      lines: [{ plan: searchPack(5, 5, 999), installment: false, stateId: null }],
      coupon: null,
    });
  });

  it('keeps the coupon while an annual item remains', () => {
    addToCart('ann', { plan: plan(), installment: false, stateId: 1 });
    addToCart('ann', { plan: searchPack(5, 5, 999), installment: false, stateId: null });
    setCartCoupon('ann', COUPON);

    removeFromCart('ann', lineKey(searchPack(5, 5, 999)));

    expect(readCart('ann').coupon).toEqual(COUPON);
  });

  it('reads a cart that does not parse as empty', () => {
    localStorage.setItem(CART_STORAGE_KEY, '{"owner":"ann","lines":[{"plan":{"price":"free"}}]}');
    expect(readCart('ann')).toEqual({ lines: [], coupon: null });
  });

  it('is forgotten by clearCart', () => {
    addToCart('ann', { plan: plan(), installment: false, stateId: 1 });
    clearCart();
    expect(localStorage.getItem(CART_STORAGE_KEY)).toBeNull();
  });
});
