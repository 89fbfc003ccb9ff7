/**
 * Messages the spec quotes for the screens (search-and-accounts §8, subscriptions-and-payments
 * §8), in one place for web and server. Keep the wording; typos in the originals may be fixed.
 */
export const SPEC_MESSAGES = {
  userNotFound: 'User not found',
  signInFirst: 'Please create an account or login first',
  loginFirst: 'You need to login first',
  noSubscription: 'You dont have any Subscription',
} as const;
