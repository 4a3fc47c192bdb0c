// The payments feature's public face: what other features may use of it (a booking pays through the
// saved-card checkout). Its hooks live in queries.ts, which its own components import.

export { CardSetupForm } from './components/card-setup-form.tsx';
export { SavedCardCheckout } from './components/saved-card-checkout.tsx';
export { usePaymentMethods } from './queries.ts';
