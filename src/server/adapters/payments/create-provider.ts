import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { PaymentProvider } from './provider.ts';
import { StripePaymentProvider } from './stripe-provider.ts';
import { TestPaymentProvider } from './test-provider.ts';

/** Stripe when its keys are set, else the built-in test provider, so the app runs
 * with no account anywhere. */
export function createPaymentProvider(config: Config, db: Db): PaymentProvider {
  return config.stripe ? new StripePaymentProvider(config.stripe) : new TestPaymentProvider(db);
}
