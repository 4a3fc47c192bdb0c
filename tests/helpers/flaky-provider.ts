import type { PaymentProvider } from '../../src/server/adapters/payments/provider.ts';

// A payment provider that fails on command, around a real one (for the fault tests): an outage
// (the call never reaches the provider) or a lost answer (the provider did it, the reply never came).

type Method =
  | 'retrievePaymentIntent'
  | 'capturePaymentIntent'
  | 'cancelPaymentIntent'
  | 'refund'
  | 'createTransfer'
  | 'reverseTransfer'
  | 'authoriseOffSession';

export class ProviderOutage extends Error {
  constructor(method: string) {
    super(`connect ECONNREFUSED: the provider did not answer ${method}`);
    this.name = 'ProviderOutage';
  }
}

export function flakyProvider(real: PaymentProvider) {
  const plans = new Map<Method, { count: number; lostAnswer: boolean }>();
  const calls: Record<Method, number> = {
    retrievePaymentIntent: 0,
    capturePaymentIntent: 0,
    cancelPaymentIntent: 0,
    refund: 0,
    createTransfer: 0,
    reverseTransfer: 0,
    authoriseOffSession: 0,
  };
  const wrap =
    <M extends Method>(method: M) =>
    async (...args: Parameters<PaymentProvider[M]>) => {
      calls[method]++;
      const plan = plans.get(method);
      if (plan && plan.count > 0) {
        plan.count--;
        if (plan.lostAnswer) await (real[method] as (...a: unknown[]) => Promise<unknown>)(...args);
        throw new ProviderOutage(method);
      }
      return (real[method] as (...a: unknown[]) => Promise<unknown>)(...args);
    };
  const provider: PaymentProvider = Object.create(real);
  Object.assign(provider, {
    retrievePaymentIntent: wrap('retrievePaymentIntent'),
    capturePaymentIntent: wrap('capturePaymentIntent'),
    cancelPaymentIntent: wrap('cancelPaymentIntent'),
    refund: wrap('refund'),
    createTransfer: wrap('createTransfer'),
    reverseTransfer: wrap('reverseTransfer'),
    authoriseOffSession: wrap('authoriseOffSession'),
  });
  return {
    provider,
    calls,
    /** The next `count` calls of `method` fail without reaching the provider. */
    failNext(method: Method, count: number) {
      plans.set(method, { count, lostAnswer: false });
    },
    /** The next `count` calls of `method` reach the provider, which acts, but the answer is lost. */
    loseAnswers(method: Method, count: number) {
      plans.set(method, { count, lostAnswer: true });
    },
    heal() {
      plans.clear();
    },
  };
}
