import { z } from 'zod';
import { boundedString, requiredString, wholeNumberOrDigits } from '../api/common.ts';
import { EmailSchema } from '../auth/email.ts';
import {
  CARD_TYPES,
  brandMismatchMessage,
  cardBrandOf,
  cvvFits,
  digitsOf,
  expiryInFuture,
  parseExpiry,
  passesAbaChecksum,
  passesLuhn,
} from './card.ts';
import { MAX_DONATION_CENTS, parseDollars } from './money.ts';

// subscriptions-and-payments §2 "Subscription", "Checkout", "Donation page", §3 entities, §5
// validation, §7 calls, §8 errors; search-and-accounts "Auto-renew toggle", "Donation" (issue 5).

export const PAYMENT_MESSAGES = {
  alreadyInCart: 'Subscription is already added to the list',
  alreadyOwned: 'You already have this subscription.',
  signInToPurchase: 'Please create account or sign in to purchase.',
  couponAnnualOnly: 'Coupon code only applicable for annual subscriptions',
  couponInvalid: 'Invalid coupon code or coupon is expired',
  paymentFailed:
    'Payment failed. Verify in your profile, or retry after some time, if subscription is not active.',
  donationFailed: 'Payment request failed. Please provide valid data.',
  paymentInProgress:
    'Your payment is under process. Please do not refresh the page or hit back button now.',
  otpMailNotSent: 'Mail not Sent!!',
  autoRenewTryAgain: 'Try Again!!',
  ocrEcheckSuccess: 'Payment has been done successfully. Proceed to next step.',
  monthlyInvoice: 'Contact us directly to setup a monthly recurring invoice.',
  dashboardBanner: 'Dashboard access is included with annual subscriptions with Medicare pricing.',
  rxBanner: 'Annual subscriptions get Rx Wholesaler data for free',
} as const;

/** 'Your subscription auto-renewal for {state (type) or Individual Search} has been activated/deactivated.' */
export function autoRenewalMessage(subject: string, on: boolean): string {
  return `Your subscription auto-renewal for ${subject} has been ${on ? 'activated' : 'deactivated'}.`;
}

export const SUBSCRIPTION_TYPES = ['Annual', 'Monthly', 'Individual Search'] as const;
export const ACCESS_TYPES = ['State', 'National', 'All States'] as const;

// ---- Catalogue ------------------------------------------------------------------------------

/**
 * A plan as the tiles show it (`master/getsubscription`). Dollar fields keep the legacy names;
 * the `…Cents` fields are exact. For a state plan totalPrice = price × totalFilesCountSpecificState.
 */
export const SubscriptionSchema = z.object({
  subscriptionID: z.number().int(),
  subscriptionTitle: z.string(),
  subscriptionType: z.enum(SUBSCRIPTION_TYPES),
  accessType: z.enum(ACCESS_TYPES),
  /** Per file (state plans) or the price (national plans), in dollars. */
  price: z.number(),
  totalPrice: z.number(),
  priceCents: z.number().int(),
  totalPriceCents: z.number().int(),
  /** The chosen state's name, or 'All States' / 'National'. */
  filterStates: z.string(),
  stateCode: z.string().nullable(),
  totalFilesCountSpecificState: z.number().int(),
  totalFilesCountAllStates: z.number().int(),
  hospitalCount: z.number().int(),
  totalHospitalCountAllStates: z.number().int(),
  priceDescription: z.string(),
  searchCount: z.number().int().nullable(),
  installmentEligible: z.boolean(),
  maintenanceFeeCents: z.number().int(),
  negotiable: z.boolean(),
  includesDataFeed: z.boolean(),
  termMonths: z.number().int(),
  /** Set on a custom offer: its id (buy it by sending customOfferId). */
  customOfferId: z.number().int().nullable(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;

export const SubscriptionListSchema = z.object({ data: z.array(SubscriptionSchema) });

const stateId = wholeNumberOrDigits('stateId must be a whole number.', (n) =>
  n
    .min(1, 'stateId must be a state id such as 1.')
    .max(99, 'stateId must be a state id such as 1.'),
);
const planId = (name: string) =>
  wholeNumberOrDigits(`${name} must be a whole number.`, (n) =>
    n
      .min(1, `${name} must be a plan id such as 1.`)
      .max(2_147_483_647, `${name} must be a plan id such as 1.`),
  );
const userIdField = (name: string) =>
  z
    .string({ error: requiredString(name) })
    .trim()
    .uuid(`${name} must be the signed-in account's id.`);

/** `GET master/getsubscription?stateId=`: defaults to Alabama (1). */
export const GetSubscriptionQuerySchema = z.object({ stateId: stateId.optional() });
/** `GET Master/getsubscriptionbyid?stateId=&subscriptionid=`. */
export const GetSubscriptionByIdQuerySchema = z.object({
  stateId: stateId.optional(),
  subscriptionid: planId('subscriptionid'),
});
/** `POST Master/getCustomsubscriptionbyid?userID=&StateId=`. */
export const CustomSubscriptionQuerySchema = z.object({
  userID: userIdField('userID'),
  StateId: stateId.optional(),
});

/** `GET Subscription/getcheckoutflag?userId=&subscriptionId=&state=`: 1 if purchasable. */
export const CheckoutFlagQuerySchema = z.object({
  userId: userIdField('userId'),
  subscriptionId: planId('subscriptionId'),
  state: z
    .string()
    .trim()
    .max(60, 'state must not be more than 60 characters.')
    .optional()
    .default(''),
});
export const CheckoutFlagSchema = z.union([z.literal(0), z.literal(1)]);

/** `GET Subscription/GetMaintancesCharges?filterInput={plan id}`. */
export const MaintenanceChargesQuerySchema = z.object({ filterInput: planId('filterInput') });
export const MaintenanceChargesSchema = z.array(
  z.object({ maintancesCharges: z.number(), maintancesChargesCents: z.number().int() }),
);

/** `GET Master/getallcoupons?cupon=`: one element for a valid coupon, none otherwise. */
export const CouponQuerySchema = z.object({
  cupon: z.string().trim().max(40, 'cupon must not be more than 40 characters.').optional(),
});
export const CouponSchema = z.object({
  couponID: z.number().int(),
  couponCode: z.string(),
  couponDiscountPerc: z.number().int(),
});
export const CouponListSchema = z.array(CouponSchema);

/** `POST master/subscriptionViewMailSend?userName=&userEmail=`. */
export const SubscriptionViewMailQuerySchema = z.object({
  userName: boundedString('userName', 100).trim().min(1, 'Name is required.'),
  userEmail: EmailSchema,
});

// ---- The account's subscriptions ------------------------------------------------------------

/** `POST subscription/getsubscription` {userID}. */
export const MySubscriptionsRequestSchema = z.object({ userID: userIdField('userID') });
/** A profile card (search-and-accounts §3 "Subscription card"). */
export const SubscriptionCardSchema = z.object({
  state: z.string().nullable(),
  individualSearch: z.boolean(),
  subscriptiontype: z.string(),
  subscriptionTitle: z.string(),
  expireDate: z.string(),
  totalSearchCount: z.number().int(),
  remaningSearchCount: z.number().int(),
  mySubscriptionID: z.string(),
  autoRenewal: z.boolean(),
  installment: z.boolean(),
  /** Card brand or eCheck and last four digits of the stored payment method, if any. */
  paymentMethod: z.string().nullable(),
});
export type SubscriptionCard = z.infer<typeof SubscriptionCardSchema>;
export const SubscriptionCardListSchema = z.array(SubscriptionCardSchema);

/** `POST subscription/updateAutoRenewal`. */
export const UpdateAutoRenewalRequestSchema = z.object({
  userID: userIdField('userID'),
  mySubscriptionID: z
    .string({ error: requiredString('mySubscriptionID') })
    .uuid('mySubscriptionID must be a subscription id.'),
  autoRenewStatus: z.boolean({ error: 'autoRenewStatus must be true or false.' }),
});
export const StatusMessageSchema = z.object({ status: z.boolean(), message: z.string() });

// ---- Payments -------------------------------------------------------------------------------

const text = (name: string, max: number) =>
  boundedString(name, max).trim().min(1, `${name} is required.`);

/**
 * The limits are Authorize.Net's for `billTo` (it refuses longer values): a longer value is
 * refused here, naming the field, rather than cut short on the way to the gateway.
 */
export const BillingAddressSchema = z.object({
  firstName: text('firstName', 50),
  lastName: text('lastName', 50),
  address: text('address', 60),
  city: text('city', 40),
  state: text('state', 40),
  zipcode: boundedString('zipcode', 10)
    .trim()
    .regex(/^\d{5}(-\d{4})?$/, 'zipcode must be a 5-digit ZIP code.'),
  email: EmailSchema,
});
export type BillingAddress = z.infer<typeof BillingAddressSchema>;

/** Card details: checked here (Luhn, brand, expiry, CVV) and never stored or logged. */
export function cardDetailsSchema(now: () => Date = () => new Date()) {
  return z
    .object({
      cardType: z.enum(CARD_TYPES, { error: `cardType must be one of ${CARD_TYPES.join(', ')}.` }),
      cardName: text('cardName', 100),
      cardNumber: boundedString('cardNumber', 30).transform(digitsOf),
      expiryDate: boundedString('expiryDate', 7),
      cvv: boundedString('cvv', 4),
    })
    .superRefine((card, ctx) => {
      if (!passesLuhn(card.cardNumber))
        ctx.addIssue({
          code: 'custom',
          path: ['cardNumber'],
          message: 'Card number is not valid.',
        });
      else if (cardBrandOf(card.cardNumber) !== card.cardType)
        ctx.addIssue({
          code: 'custom',
          path: ['cardNumber'],
          message: brandMismatchMessage(card.cardType),
        });
      const expiry = parseExpiry(card.expiryDate);
      if (!expiry)
        ctx.addIssue({
          code: 'custom',
          path: ['expiryDate'],
          message: 'Expiry date must be MM/YYYY.',
        });
      else if (!expiryInFuture(expiry, now()))
        ctx.addIssue({ code: 'custom', path: ['expiryDate'], message: 'The card has expired.' });
      if (!cvvFits(card.cvv, card.cardType))
        ctx.addIssue({
          code: 'custom',
          path: ['cvv'],
          message:
            card.cardType === 'American Express'
              ? 'CVV must be 4 digits.'
              : 'CVV must be 3 digits.',
        });
    });
}

export const ACCOUNT_TYPES = ['Checking', 'Savings'] as const;

export const EcheckDetailsSchema = z.object({
  routingNumber: boundedString('routingNumber', 9).refine(
    passesAbaChecksum,
    'Routing number is not valid.',
  ),
  accountNumber: boundedString('accountNumber', 17).regex(
    /^\d{4,17}$/,
    'Account number must be 4 to 17 digits.',
  ),
  accountName: text('accountName', 22),
  bankName: text('bankName', 50),
  /** The legacy form sent it blank; Checking is assumed then. */
  accountType: z
    .union([z.enum(ACCOUNT_TYPES), z.literal('')])
    .optional()
    .transform((v) => (v ? v : 'Checking')),
});

/**
 * A cart line: what to buy, never its price. Price fields a client sends (price, totalPrice,
 * actualPrice, InstallmentAmount, MaintenanceCharges, …) are ignored; the server prices the line
 * from the catalogue.
 */
export const CartItemSchema = z.object({
  subscriptionID: planId('subscriptionID'),
  /** The state's code or name for a state plan; empty for a national plan. */
  state: z
    .string()
    .trim()
    .max(60, 'state must not be more than 60 characters.')
    .optional()
    .default(''),
  IsInstalmentPayment: z.boolean().optional().default(false),
  customOfferId: z
    .number()
    .int()
    .positive()
    .max(2_147_483_647, 'customOfferId must be a custom offer id.')
    .nullable()
    .optional(),
  /** When present it must be the signed-in account. */
  userID: z.string().max(64).optional().nullable(),
});
export type CartItem = z.infer<typeof CartItemSchema>;

const cartItems = z
  .array(CartItemSchema, { error: 'items must be a list.' })
  .min(1, 'items must hold at least one subscription.')
  .max(20, 'items must not hold more than 20 subscriptions.');

export function cardPaymentRequestSchema(now?: () => Date) {
  return z.object({
    items: cartItems,
    couponCode: z.string().trim().max(40).optional().nullable(),
    /** What the screen showed as TOTAL; a different server price refuses the payment (409). */
    expectedAmountCents: z.number().int().nonnegative().optional(),
    paymentDetails: cardDetailsSchema(now),
    billingAddress: BillingAddressSchema,
  });
}
export const CheckPaymentRequestSchema = z.object({
  items: cartItems,
  couponCode: z.string().trim().max(40).optional().nullable(),
  expectedAmountCents: z.number().int().nonnegative().optional(),
  paymentDetails: EcheckDetailsSchema,
  billingAddress: BillingAddressSchema,
});
/**
 * `Payment/FreeOrder`: a cart that costs nothing, today or later (a 100% coupon on items paid
 * once). No card, account or billing address: nothing is charged and nothing is kept to charge.
 */
export const FreeOrderRequestSchema = z.object({
  items: cartItems,
  couponCode: z.string().trim().max(40).optional().nullable(),
  /** The TOTAL the screen showed ($0.00); a server price above it refuses the order (409). */
  expectedAmountCents: z.number().int().nonnegative().optional(),
});
export type FreeOrderRequest = z.infer<typeof FreeOrderRequestSchema>;
export type CardDetails = z.infer<ReturnType<typeof cardDetailsSchema>>;
export type EcheckDetails = z.infer<typeof EcheckDetailsSchema>;
export type CardPaymentRequest = z.infer<ReturnType<typeof cardPaymentRequestSchema>>;
export type CheckPaymentRequest = z.infer<typeof CheckPaymentRequestSchema>;

/** Donation amount: positive, no leading zero, at most two decimals (subscriptions-and-payments §5). */
export const DONATION_AMOUNT_PATTERN = /^(?:0|[1-9]\d*)(?:\.\d{1,2})?$/;
export const DonationAmountSchema = z
  .union([z.string(), z.number()], { error: 'Amount is required.' })
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine(
    (v) => DONATION_AMOUNT_PATTERN.test(v),
    'Amount must be a positive number with at most two decimals.',
  )
  // The pattern has passed: parseDollars refuses only more than ten digits of dollars, too many.
  .transform((v) => parseDollars(v) ?? Number.POSITIVE_INFINITY)
  .refine((cents) => cents > 0, 'Amount must be more than $0.')
  .refine((cents) => cents <= MAX_DONATION_CENTS, 'Amount must not be more than $100,000.00.');

const donationItems = z
  .array(z.object({ actualPrice: DonationAmountSchema }), { error: 'items must be a list.' })
  .length(1, 'items must hold the donation amount.');

export function donationCardRequestSchema(now?: () => Date) {
  return z.object({
    items: donationItems,
    paymentDetails: cardDetailsSchema(now),
    billingAddress: BillingAddressSchema,
  });
}
export const DonationCheckRequestSchema = z.object({
  items: donationItems,
  paymentDetails: EcheckDetailsSchema,
  billingAddress: BillingAddressSchema,
});
export type DonationCardRequest = z.infer<ReturnType<typeof donationCardRequestSchema>>;
export type DonationCheckRequest = z.infer<typeof DonationCheckRequestSchema>;

/** The `Idempotency-Key` header every payment call carries (one per checkout attempt). */
export const IdempotencyKeySchema = z
  .string({ error: 'The Idempotency-Key header is required.' })
  .regex(
    /^[A-Za-z0-9_-]{8,100}$/,
    'The Idempotency-Key header must be 8 to 100 letters, digits, - or _.',
  );

/** Authorize.Net's createTransactionResponse, the shape every payment call answers with. */
export const PaymentResponseSchema = z.object({
  transactionResponse: z.object({
    /** 1 approved, 2 declined, 3 error, 4 held for review. */
    responseCode: z.string(),
    authCode: z.string().optional(),
    transId: z.string().optional(),
    accountNumber: z.string().optional(),
    accountType: z.string().optional(),
    messages: z.array(z.object({ code: z.string(), description: z.string() })).optional(),
    errors: z.array(z.object({ errorCode: z.string(), errorText: z.string() })).optional(),
  }),
  messages: z.object({
    resultCode: z.enum(['Ok', 'Error']),
    message: z.array(z.object({ code: z.string(), text: z.string() })),
  }),
  /** RateLens's order id and status (pending after a gateway timeout). */
  orderId: z.string(),
  orderStatus: z.enum(['pending', 'paid', 'declined', 'failed']),
  amountCents: z.number().int(),
});
export type PaymentResponse = z.infer<typeof PaymentResponseSchema>;

// ---- Donation one-time code ----------------------------------------------------------------

export const OTP_LENGTH = 4;
export const OTP_MAX_ATTEMPTS = 5;

/** `POST Donation/donationUserSendOtp` {email, Otp: '', altcha}. */
export const DonationSendOtpRequestSchema = z.object({
  email: EmailSchema,
  Otp: z.string().max(10).optional(),
  altcha: boundedString('altcha', 4096).min(1, 'Please complete the bot check.'),
});
/** `POST Donation/donationUserOtpVerify` {email, Otp}. */
export const DonationVerifyOtpRequestSchema = z.object({
  email: EmailSchema,
  Otp: z
    .string({ error: requiredString('Otp') })
    .regex(/^\d{4}$/, 'Otp must be the 4-digit code from the e-mail.'),
});
/** The verify answer adds the token the donation payment calls carry as `Donation-Token`. */
export const DonationVerifyResponseSchema = z.object({
  isSuccess: z.boolean(),
  message: z.string(),
  donationToken: z.string().optional(),
});
