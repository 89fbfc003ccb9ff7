import { Button, Group, Stack, TextInput } from '@mantine/core';
import { PAYMENT_MESSAGES } from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { FormAlert } from '../../shared/form-alert.tsx';
import { errorMessage } from '../../shared/http.ts';
import { useSettledFocus } from '../../shared/use-settled-focus.ts';
import type { CartCoupon } from './cart.ts';
import { findCoupon } from './subscriptions-api.ts';

interface CouponFormProps {
  coupon: CartCoupon | null;
  /** §5: a coupon applies only when the cart holds an annual subscription. */
  hasAnnualItem: boolean;
  onChange: (coupon: CartCoupon | null) => void;
  disabled: boolean;
}

/** `applied` names the coupon a success message is about. */
type Result = { tone: 'success' | 'error' | 'info'; text: string; applied?: string };

/** When removing the last annual item took the coupon with it (cart.ts removeFromCart). */
export const couponDroppedMessage = (code: string) =>
  `Coupon ${code} was removed: it applies to annual subscriptions, and none is left in the order.`;

/**
 * What to say now: a success message stands only while its coupon is still applied. Once the
 * coupon has gone with the last annual item, the message says so instead.
 */
function currentResult(
  result: Result | null,
  coupon: CartCoupon | null,
  hasAnnualItem: boolean,
): Result | null {
  if (result?.applied === undefined || result.applied === coupon?.couponCode) return result;
  return hasAnnualItem ? null : { tone: 'info', text: couponDroppedMessage(result.applied) };
}

/**
 * The coupon box of /checkout (subscriptions-and-payments §4 "Cart", §5 "Coupon", §8): Apply
 * looks the code up; an unknown or expired one says so and takes the discount back to 0.
 */
export function CouponForm({ coupon, hasAnnualItem, onChange, disabled }: CouponFormProps) {
  const [code, setCode] = useState('');
  const [result, setResult] = useState<Result | null>(null);
  const field = useRef<HTMLInputElement>(null);

  const apply = useMutation({
    mutationFn: findCoupon,
    onSuccess: (found) => {
      onChange(found);
      setResult(
        found
          ? {
              tone: 'success',
              text: `Coupon ${found.couponCode} applied: ${found.couponDiscountPerc}% off annual subscriptions.`,
              applied: found.couponCode,
            }
          : { tone: 'error', text: PAYMENT_MESSAGES.couponInvalid },
      );
    },
    onError: (error) => setResult({ tone: 'error', text: errorMessage(error) }),
  });
  const { buttonRef, resultRef } = useSettledFocus(apply.isPending);

  const submit = () => {
    const trimmed = code.trim();
    if (trimmed === '') return;
    if (!hasAnnualItem) {
      setResult({ tone: 'error', text: PAYMENT_MESSAGES.couponAnnualOnly });
      return;
    }
    apply.mutate(trimmed);
  };

  const shown = currentResult(result, coupon, hasAnnualItem);
  return (
    <Stack gap="xs">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
        aria-label="Coupon"
      >
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Coupon code"
            ref={field}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            maxLength={40}
            autoComplete="off"
            disabled={disabled}
            style={{ flex: '1 1 12rem', maxWidth: '20rem' }}
          />
          <Button
            ref={buttonRef}
            type="submit"
            variant="outline"
            loading={apply.isPending}
            disabled={disabled || code.trim() === ''}
          >
            Apply
          </Button>
          {coupon && (
            <Button
              variant="subtle"
              disabled={disabled}
              onClick={() => {
                onChange(null);
                setResult(null);
                // The button goes with the coupon: the keyboard goes to the field, for another.
                field.current?.focus();
              }}
            >
              Remove coupon {coupon.couponCode}
            </Button>
          )}
        </Group>
      </form>
      {shown && (
        <FormAlert ref={resultRef} tone={shown.tone}>
          {shown.text}
        </FormAlert>
      )}
    </Stack>
  );
}
