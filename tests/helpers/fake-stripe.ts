import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import Stripe from 'stripe';

// A local fake Stripe for tests: the real SDK makes real HTTP calls, and the fake answers with
// Stripe's object shapes and records what it was sent. Money moves as at Stripe: an authorised
// intent has a charge, a capture takes it, refunds count on the charge (`amount_refunded`, read
// through `expand[]=latest_charge`), and a repeated idempotency key gets the first answer.

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  body: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export interface FakeCard {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

type Json = Record<string, unknown>;

/** A fake api.stripe.com: customers (created, their cards listed, deleted), PaymentIntents, charges, refunds, SetupIntents and PaymentMethods. */
export async function startFakeStripe() {
  const requests: Recorded[] = [];
  const customers = new Map<string, Json>();
  const intents = new Map<string, Json>();
  const charges = new Map<string, Json>();
  /** Injected outages: the next `count` requests whose path matches answer `status` (or the connection drops). */
  const faults: { path: RegExp; count: number; status: number | 'drop' | 'lose' }[] = [];
  const setups = new Map<string, Json>();
  const disputes = new Map<string, Json>();
  const methods = new Map<string, Json>();
  const byIdempotencyKey = new Map<string, { status: number; body: Json }>();
  // Connect: Express accounts, transfers (with their reversals) and the links into onboarding.
  const accounts = new Map<string, Json>();
  const transfers = new Map<string, Json>();
  /** Connected accounts' payouts to their banks (read with the Stripe-Account header). */
  const payouts = new Map<string, Json>();
  const accountLinks: Json[] = [];
  let counter = 0;
  const newId = (prefix: string) => `${prefix}_fake${String(++counter).padStart(6, '0')}`;
  const now = () => Math.floor(Date.now() / 1000);

  const metadataOf = (body: URLSearchParams) => {
    const metadata: Record<string, string> = {};
    for (const [key, value] of body) {
      const m = /^metadata\[(.+)\]$/.exec(key);
      if (m?.[1]) metadata[m[1]] = value;
    }
    return metadata;
  };
  const expands = (query: URLSearchParams, field: string) =>
    [...query.entries()].some(([k, v]) => k.startsWith('expand') && v === field);
  const withMethod = (object: Json, query: URLSearchParams) => {
    let out = object;
    if (expands(query, 'payment_method') && typeof out.payment_method === 'string')
      out = { ...out, payment_method: methods.get(out.payment_method) ?? out.payment_method };
    if (expands(query, 'latest_charge') && typeof out.latest_charge === 'string')
      out = { ...out, latest_charge: charges.get(out.latest_charge) ?? out.latest_charge };
    return out;
  };
  const missing = (what: string, id: string) => ({
    status: 404,
    body: {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such ${what}: '${id}'`,
        param: 'id',
      },
    },
  });
  const unexpectedState = (message: string) => ({
    status: 400,
    body: { error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message } },
  });

  function route(r: Recorded): { status: number; body: Json } {
    const { method, path, body, query } = r;
    const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    const intentAction = /^\/v1\/payment_intents\/([^/]+)\/(capture|cancel)$/.exec(path);
    const setupPath = /^\/v1\/setup_intents\/([^/]+)$/.exec(path);
    const detachPath = /^\/v1\/payment_methods\/([^/]+)\/detach$/.exec(path);
    const customerPath = /^\/v1\/customers\/([^/]+)$/.exec(path);
    const disputePath = /^\/v1\/disputes\/([^/]+)$/.exec(path);
    if (disputePath && method === 'GET') {
      const dispute = disputes.get(disputePath[1]!);
      return dispute ? { status: 200, body: dispute } : missing('dispute', disputePath[1]!);
    }
    if (disputePath && method === 'POST') {
      // Evidence staged, or submitted to the bank with submit=true (the default).
      const dispute = disputes.get(disputePath[1]!);
      if (!dispute) return missing('dispute', disputePath[1]!);
      if (!['needs_response', 'warning_needs_response'].includes(dispute.status as string))
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              message: 'This dispute is already closed or under review.',
            },
          },
        };
      const evidence = { ...(dispute.evidence as Json) };
      for (const [key, value] of body) {
        const m = /^evidence\[(.+)\]$/.exec(key);
        if (m?.[1]) evidence[m[1]] = value;
      }
      dispute.evidence = evidence;
      if (body.get('submit') !== 'false') {
        const details = dispute.evidence_details as Json;
        details.submission_count = (details.submission_count as number) + 1;
        details.has_evidence = true;
        dispute.status =
          dispute.status === 'warning_needs_response' ? 'warning_under_review' : 'under_review';
      }
      return { status: 200, body: dispute };
    }
    const customerMethodsPath = /^\/v1\/customers\/([^/]+)\/payment_methods$/.exec(path);
    const accountPath = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    const loginLinkPath = /^\/v1\/accounts\/([^/]+)\/login_links$/.exec(path);
    const transferPath = /^\/v1\/transfers\/([^/]+)$/.exec(path);
    const reversalPath = /^\/v1\/transfers\/([^/]+)\/reversals$/.exec(path);
    if (method === 'POST' && path === '/v1/accounts') {
      const account = {
        id: newId('acct'),
        object: 'account',
        type: 'express',
        country: body.get('country'),
        email: body.get('email'),
        created: now(),
        details_submitted: false,
        charges_enabled: false,
        payouts_enabled: false,
        capabilities: { transfers: 'inactive' },
        controller: {
          fees: { payer: body.get('controller[fees][payer]') },
          losses: { payments: body.get('controller[losses][payments]') },
          stripe_dashboard: { type: body.get('controller[stripe_dashboard][type]') },
          is_controller: true,
          type: 'application',
        },
        tos_acceptance: { service_agreement: body.get('tos_acceptance[service_agreement]') },
        requirements: {
          currently_due: ['external_account', 'individual.dob.day', 'tos_acceptance.date'],
          past_due: [],
          eventually_due: [],
          disabled_reason: 'requirements.past_due',
        },
        metadata: metadataOf(body),
        livemode: false,
      };
      accounts.set(account.id, account);
      return { status: 200, body: account };
    }
    if (accountPath && method === 'GET') {
      const account = accounts.get(accountPath[1]!);
      return account ? { status: 200, body: account } : missing('account', accountPath[1]!);
    }
    if (method === 'POST' && path === '/v1/account_links') {
      const account = body.get('account') ?? '';
      if (!accounts.has(account)) return missing('account', account);
      const link = {
        object: 'account_link',
        created: now(),
        expires_at: now() + 300,
        url: `https://connect.stripe.com/setup/e/${account}/${newId('link')}`,
        type: body.get('type'),
        refresh_url: body.get('refresh_url'),
        return_url: body.get('return_url'),
        account,
      };
      accountLinks.push(link);
      return { status: 200, body: link };
    }
    if (loginLinkPath && method === 'POST') {
      const account = accounts.get(loginLinkPath[1]!);
      if (!account) return missing('account', loginLinkPath[1]!);
      if (!account.details_submitted)
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              message: 'Cannot create a login link for an account that has not completed onboarding.',
            },
          },
        };
      return {
        status: 200,
        body: {
          object: 'login_link',
          created: now(),
          url: `https://connect.stripe.com/express/${newId('ll')}`,
        },
      };
    }
    if (method === 'POST' && path === '/v1/transfers') {
      const destination = accounts.get(body.get('destination') ?? '');
      if (!destination) return missing('account', body.get('destination') ?? '');
      if ((destination.capabilities as Json).transfers !== 'active')
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'insufficient_capabilities_for_transfer',
              message:
                'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
            },
          },
        };
      const amount = Number(body.get('amount'));
      const source = body.get('source_transaction');
      if (source) {
        const charge = charges.get(source);
        if (!charge) return missing('charge', source);
        const sent = [...transfers.values()]
          .filter((t) => t.source_transaction === source)
          .reduce((sum, t) => sum + (t.amount as number), 0);
        if (sent + amount > (charge.amount as number))
          return {
            status: 400,
            body: {
              error: {
                type: 'invalid_request_error',
                code: 'balance_insufficient',
                message: 'The transfer amount exceeds the source transaction amount.',
              },
            },
          };
      }
      const transfer = {
        id: newId('tr'),
        object: 'transfer',
        amount,
        amount_reversed: 0,
        currency: body.get('currency'),
        destination: destination.id,
        source_transaction: source,
        transfer_group: body.get('transfer_group'),
        metadata: metadataOf(body),
        reversed: false,
        reversals: { object: 'list', data: [] as Json[], has_more: false },
        created: now(),
        livemode: false,
      };
      transfers.set(transfer.id, transfer);
      return { status: 200, body: transfer };
    }
    const payoutPath = /^\/v1\/payouts\/([^/]+)$/.exec(path);
    if (payoutPath && method === 'GET') {
      const payout = payouts.get(payoutPath[1]!);
      // A payout belongs to the account named by the Stripe-Account header.
      return payout && payout.account === r.headers['stripe-account']
        ? { status: 200, body: payout }
        : missing('payout', payoutPath[1]!);
    }
    if (method === 'GET' && path === '/v1/transfers') {
      const group = query.get('transfer_group');
      const data = [...transfers.values()].filter((t) => !group || t.transfer_group === group).reverse();
      return { status: 200, body: { object: 'list', data, has_more: false, url: path } };
    }
    if (transferPath && method === 'GET') {
      const transfer = transfers.get(transferPath[1]!);
      return transfer ? { status: 200, body: transfer } : missing('transfer', transferPath[1]!);
    }
    if (reversalPath && method === 'POST') {
      const transfer = transfers.get(reversalPath[1]!);
      if (!transfer) return missing('transfer', reversalPath[1]!);
      const amount = Number(
        body.get('amount') ?? (transfer.amount as number) - (transfer.amount_reversed as number),
      );
      if ((transfer.amount_reversed as number) + amount > (transfer.amount as number))
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              message: 'The reversal amount exceeds the amount left on the transfer.',
            },
          },
        };
      const reversal = {
        id: newId('trr'),
        object: 'transfer_reversal',
        amount,
        transfer: transfer.id,
        created: now(),
      };
      transfer.amount_reversed = (transfer.amount_reversed as number) + amount;
      transfer.reversed = transfer.amount_reversed === transfer.amount;
      (transfer.reversals as { data: Json[] }).data.push(reversal);
      return { status: 200, body: reversal };
    }
    if (method === 'GET' && path === '/v1/balance') {
      const account = r.headers['stripe-account'];
      const net = (t: Json) => (t.amount as number) - (t.amount_reversed as number);
      if (typeof account === 'string') {
        // A connected account's: transfers arrive pending, and are available once settled (settle()).
        const mine = [...transfers.values()].filter((t) => t.destination === account);
        const available = mine.filter((t) => t.settled).reduce((sum, t) => sum + net(t), 0);
        const pending = mine.filter((t) => !t.settled).reduce((sum, t) => sum + net(t), 0);
        return {
          status: 200,
          body: {
            object: 'balance',
            available: [{ amount: available, currency: 'usd' }],
            pending: [{ amount: pending, currency: 'usd' }],
            livemode: false,
          },
        };
      }
      const received = [...intents.values()].reduce((sum, i) => sum + (i.amount_received as number), 0);
      const refunded = [...charges.values()].reduce((sum, c) => sum + (c.amount_refunded as number), 0);
      const out = [...transfers.values()].reduce((sum, t) => sum + net(t), 0);
      return {
        status: 200,
        body: {
          object: 'balance',
          available: [{ amount: received - refunded - out, currency: 'usd' }],
          pending: [{ amount: 0, currency: 'usd' }],
          livemode: false,
        },
      };
    }
    if (customerMethodsPath && method === 'GET') {
      const id = customerMethodsPath[1]!;
      if (!customers.has(id)) return missing('customer', id);
      const data = [...methods.values()].filter((pm) => pm.customer === id);
      return { status: 200, body: { object: 'list', data, has_more: false, url: path } };
    }
    if (customerPath && method === 'DELETE') {
      const id = customerPath[1]!;
      if (!customers.has(id)) return missing('customer', id);
      customers.delete(id);
      // As at Stripe, a deleted customer's cards cannot be used again.
      for (const pm of methods.values()) if (pm.customer === id) pm.customer = null;
      return { status: 200, body: { id, object: 'customer', deleted: true } };
    }
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: newId('cus'),
        object: 'customer',
        created: now(),
        email: body.get('email'),
        name: body.get('name'),
        metadata: metadataOf(body),
        livemode: false,
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const id = newId('pi');
      const intent = {
        id,
        object: 'payment_intent',
        amount: Number(body.get('amount')),
        amount_capturable: 0,
        amount_received: 0,
        capture_method: body.get('capture_method') ?? 'automatic_async',
        client_secret: `${id}_secret_abc`,
        created: now(),
        currency: body.get('currency'),
        customer: body.get('customer'),
        livemode: false,
        metadata: metadataOf(body),
        payment_method: null,
        status: 'requires_payment_method',
        automatic_payment_methods: {
          enabled: body.get('automatic_payment_methods[enabled]') === 'true',
          allow_redirects: body.get('automatic_payment_methods[allow_redirects]'),
        },
      };
      intents.set(id, intent);
      return { status: 200, body: intent };
    }
    if (intentPath && method === 'POST') {
      // An update (the saved-card checkout names the card's customer first).
      const intent = intents.get(intentPath[1]!);
      if (!intent) return missing('payment_intent', intentPath[1]!);
      if (body.get('customer')) intent.customer = body.get('customer');
      return { status: 200, body: intent };
    }
    const confirmPath = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path);
    if (confirmPath && method === 'POST') {
      // A server-side confirmation with a saved card: it must be the intent's customer's.
      const intent = intents.get(confirmPath[1]!);
      if (!intent) return missing('payment_intent', confirmPath[1]!);
      const pm = methods.get(body.get('payment_method') ?? '');
      if (!pm) return missing('payment_method', body.get('payment_method') ?? '');
      if (pm.customer !== intent.customer)
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              message:
                'The provided PaymentMethod belongs to a Customer, but you did not provide a Customer.',
            },
          },
        };
      // Stripe's test cards off-session: 3184 asks for the cardholder every time, 0341 attaches and
      // then declines every charge; either leaves the intent to be paid again.
      const card = pm.card as { last4?: string } | undefined;
      const refusal =
        intent.status !== 'requires_payment_method'
          ? null
          : card?.last4 === '0341'
            ? { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' }
            : card?.last4 === '3184' && body.get('off_session') === 'true'
              ? {
                  code: 'authentication_required',
                  decline_code: 'authentication_required',
                  message: 'Your card was declined. This transaction requires authentication.',
                }
              : null;
      if (refusal) {
        Object.assign(intent, { last_payment_error: { type: 'card_error', ...refusal } });
        return {
          status: 402,
          body: { error: { type: 'card_error', ...refusal, payment_intent: intent } },
        };
      }
      if (intent.status === 'requires_payment_method') {
        const charge = {
          id: newId('ch'),
          object: 'charge',
          amount: intent.amount,
          amount_refunded: 0,
          refunded: false,
          payment_intent: intent.id,
          currency: intent.currency,
        };
        charges.set(charge.id, charge);
        Object.assign(intent, {
          status: 'requires_capture',
          payment_method: pm.id,
          amount_capturable: intent.amount,
          latest_charge: charge.id,
        });
      }
      return { status: 200, body: withMethod(intent, query) };
    }
    if (intentPath && method === 'GET') {
      const intent = intents.get(intentPath[1]!);
      return intent
        ? { status: 200, body: withMethod(intent, query) }
        : missing('payment_intent', intentPath[1]!);
    }
    if (intentAction && method === 'POST') {
      const intent = intents.get(intentAction[1]!);
      if (!intent) return missing('payment_intent', intentAction[1]!);
      if (intentAction[2] === 'capture') {
        if (intent.status !== 'requires_capture')
          return unexpectedState(
            `This PaymentIntent could not be captured because it has a status of ${intent.status}.`,
          );
        Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, amount_capturable: 0 });
      } else {
        if (intent.status === 'succeeded')
          return unexpectedState(
            'You cannot cancel this PaymentIntent because it has a status of succeeded.',
          );
        Object.assign(intent, { status: 'canceled', amount_capturable: 0 });
      }
      return { status: 200, body: intent };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = intents.get(body.get('payment_intent') ?? '');
      if (!intent) return missing('payment_intent', body.get('payment_intent') ?? '');
      const charge = charges.get(String(intent.latest_charge));
      const amount = Number(body.get('amount') ?? intent.amount);
      if (intent.status !== 'succeeded' || !charge)
        return unexpectedState(`This PaymentIntent does not have a successful charge to refund.`);
      if ((charge.amount_refunded as number) + amount > (intent.amount_received as number))
        return unexpectedState('Refund amount is greater than unrefunded amount on charge.');
      charge.amount_refunded = (charge.amount_refunded as number) + amount;
      charge.refunded = charge.amount_refunded === intent.amount_received;
      const refund = {
        id: newId('re'),
        object: 'refund',
        amount: Number(body.get('amount') ?? intent.amount),
        currency: intent.currency,
        payment_intent: intent.id,
        status: 'succeeded',
        created: now(),
      };
      return { status: 200, body: refund };
    }
    if (method === 'POST' && path === '/v1/setup_intents') {
      const id = newId('seti');
      const setup = {
        id,
        object: 'setup_intent',
        client_secret: `${id}_secret_abc`,
        created: now(),
        customer: body.get('customer'),
        usage: body.get('usage'),
        livemode: false,
        metadata: {},
        payment_method: null,
        status: 'requires_payment_method',
      };
      setups.set(id, setup);
      return { status: 200, body: setup };
    }
    if (setupPath && method === 'GET') {
      const setup = setups.get(setupPath[1]!);
      return setup ? { status: 200, body: withMethod(setup, query) } : missing('setup_intent', setupPath[1]!);
    }
    if (detachPath && method === 'POST') {
      const pm = methods.get(detachPath[1]!);
      if (!pm) return missing('payment_method', detachPath[1]!);
      if (!pm.customer)
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              message:
                'The payment method you provided is not attached to a customer so detachment is impossible.',
            },
          },
        };
      pm.customer = null;
      return { status: 200, body: pm };
    }
    return {
      status: 404,
      body: {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` },
      },
    };
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const fault = faults.find((f) => f.count > 0 && f.path.test(url.pathname));
      if (fault && fault.status !== 'lose') {
        fault.count--;
        if (fault.status === 'drop') {
          req.socket.destroy();
          return;
        }
        res.writeHead(fault.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'Stripe is having a bad day.' } }));
        return;
      }
      const recorded: Recorded = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
        headers: req.headers,
      };
      requests.push(recorded);
      // Stripe answers a repeated idempotency key with the first response.
      const key = req.headers['idempotency-key'];
      const replay = typeof key === 'string' ? byIdempotencyKey.get(key) : undefined;
      const answer = replay ?? route(recorded);
      if (typeof key === 'string' && !replay) byIdempotencyKey.set(key, answer);
      if (fault?.status === 'lose') {
        // Done, but the answer never arrives.
        fault.count--;
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
      res.end(JSON.stringify(answer.body));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;

  /** What the browser does with Stripe.js: confirm with a card. */
  function attachCard(customer: string | null, card: FakeCard) {
    const pm = {
      id: newId('pm'),
      object: 'payment_method',
      type: 'card',
      customer,
      card: { ...card, country: 'US', funding: 'credit' },
      created: now(),
      livemode: false,
      metadata: {},
    };
    methods.set(pm.id, pm);
    return pm.id;
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    /** A card saved for a customer (what a confirmed SetupIntent leaves). */
    savedCard: (customer: string, card: FakeCard) => attachCard(customer, card),
    /** The customer a saved card is attached to now (null once detached), for assertions. */
    customerOfCard: (paymentMethodId: string) => methods.get(paymentMethodId)?.customer ?? null,
    requests,
    customers,
    /**
     * A connected account's payout to its bank as Stripe holds it (made or changed): its id. Arrival is
     * `arrival` (default now).
     */
    payout(
      account: string,
      values: { id?: string; amount: number; status: string; arrival?: Date; failureMessage?: string },
    ) {
      const id = values.id ?? newId('po');
      payouts.set(id, {
        id,
        object: 'payout',
        account,
        amount: values.amount,
        currency: 'usd',
        status: values.status,
        arrival_date: Math.floor((values.arrival ?? new Date()).getTime() / 1000),
        failure_message: values.failureMessage ?? null,
        created: now(),
        livemode: false,
      });
      return { ...payouts.get(id)! };
    },
    payouts,
    /** Connect: the accounts, transfers and onboarding links Stripe holds, for assertions. */
    accounts,
    transfers,
    accountLinks,
    /**
     * What the lender did on Stripe's hosted onboarding: 'complete' (transfers active), 'needs_information'
     * (verification asks for a document), 'rejected', or 'deauthorised' (they disconnected the platform).
     */
    onboard(accountId: string, outcome: 'complete' | 'needs_information' | 'rejected') {
      const account = accounts.get(accountId)!;
      const requirements = account.requirements as Json;
      if (outcome === 'complete') {
        Object.assign(account, {
          details_submitted: true,
          charges_enabled: true,
          payouts_enabled: true,
          capabilities: { transfers: 'active' },
        });
        Object.assign(requirements, { currently_due: [], past_due: [], disabled_reason: null });
      } else if (outcome === 'needs_information') {
        Object.assign(account, {
          details_submitted: true,
          payouts_enabled: false,
          capabilities: { transfers: 'inactive' },
        });
        Object.assign(requirements, {
          currently_due: ['individual.verification.document'],
          past_due: ['individual.verification.document'],
          disabled_reason: 'requirements.past_due',
        });
      } else {
        Object.assign(account, {
          details_submitted: true,
          charges_enabled: false,
          payouts_enabled: false,
          capabilities: { transfers: 'inactive' },
        });
        Object.assign(requirements, { currently_due: [], past_due: [], disabled_reason: 'rejected.fraud' });
      }
      return { ...account };
    },
    /** The account as Stripe holds it now (what an account.updated event carries). */
    account: (id: string) => ({ ...accounts.get(id)! }),
    /** A transfer's funds become available in the connected account's balance. */
    settle(transferId: string) {
      transfers.get(transferId)!.settled = true;
    },
    reset: () => {
      requests.length = 0;
    },
    authorise(intentId: string, card: FakeCard) {
      const intent = intents.get(intentId)!;
      const pm = attachCard(null, card);
      const charge = {
        id: newId('ch'),
        object: 'charge',
        amount: intent.amount,
        amount_refunded: 0,
        refunded: false,
        payment_intent: intent.id,
        currency: intent.currency,
      };
      charges.set(charge.id, charge);
      Object.assign(intent, {
        status: 'requires_capture',
        payment_method: pm,
        amount_capturable: intent.amount,
        latest_charge: charge.id,
      });
    },
    /** An intent as Stripe holds it now (what a webhook would carry). */
    intent: (id: string) => ({ ...intents.get(id)! }),
    /** The intent's charge (what a charge.refunded webhook carries). */
    chargeOf: (intentId: string) => ({ ...charges.get(String(intents.get(intentId)!.latest_charge))! }),
    /** Someone refunds at Stripe's dashboard, outside CampusLoop. */
    refundOutside(intentId: string, amount: number) {
      const charge = charges.get(String(intents.get(intentId)!.latest_charge))!;
      charge.amount_refunded = (charge.amount_refunded as number) + amount;
    },
    /**
     * The cardholder's bank disputes the intent's charge: as at Stripe, the amount and a $15 fee leave
     * the balance at once (a balance transaction), unless `withdraw` is false (an inquiry).
     */
    openDispute(intentId: string, opts: { reason?: string; amount?: number; withdraw?: boolean } = {}) {
      const intent = intents.get(intentId)!;
      const id = newId('dp');
      const amount = opts.amount ?? (intent.amount_received as number);
      const withdraw = opts.withdraw ?? true;
      const dispute: Json = {
        id,
        object: 'dispute',
        amount,
        currency: intent.currency,
        charge: intent.latest_charge,
        payment_intent: intent.id,
        reason: opts.reason ?? 'fraudulent',
        status: withdraw ? 'needs_response' : 'warning_needs_response',
        created: now(),
        livemode: false,
        metadata: {},
        is_charge_refundable: false,
        evidence: {},
        evidence_details: {
          due_by: now() + 7 * 86_400,
          has_evidence: false,
          past_due: false,
          submission_count: 0,
        },
        balance_transactions: withdraw
          ? [
              {
                id: newId('txn'),
                object: 'balance_transaction',
                amount: -amount,
                fee: 1500,
                net: -amount - 1500,
              },
            ]
          : [],
      };
      disputes.set(id, dispute);
      return id;
    },
    /** The bank decides: won gives the amount and the fee back (a second balance transaction). */
    closeDispute(id: string, outcome: 'won' | 'lost') {
      const dispute = disputes.get(id)!;
      dispute.status = outcome;
      if (outcome === 'won') {
        const amount = dispute.amount as number;
        (dispute.balance_transactions as Json[]).push({
          id: newId('txn'),
          object: 'balance_transaction',
          amount,
          fee: -1500,
          net: amount + 1500,
        });
      }
    },
    /** A dispute as Stripe holds it now (what a webhook would carry). */
    dispute: (id: string) => structuredClone(disputes.get(id)!),
    /** Stripe cancels an authorisation on its own (it expired after 7 days). */
    expire(intentId: string) {
      Object.assign(intents.get(intentId)!, { status: 'canceled', amount_capturable: 0 });
    },
    /**
     * The next `count` requests to a matching path fail: HTTP `status`, the connection dropped before
     * Stripe acts ('drop'), or after it acted, so the answer is lost ('lose').
     */
    failNext(path: RegExp, count: number, status: number | 'drop' | 'lose' = 500) {
      faults.push({ path, count, status });
    },
    confirmSetup(setupIntentId: string, card: FakeCard) {
      const setup = setups.get(setupIntentId)!;
      Object.assign(setup, {
        status: 'succeeded',
        payment_method: attachCard(setup.customer as string, card),
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An event as Stripe sends it to a webhook endpoint. */
export function stripeEvent(id: string, type: string, object: object) {
  return {
    id,
    object: 'event',
    type,
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/** An event of a connected account, as a Connect endpoint receives it (it names the account). */
export function connectEvent(id: string, type: string, account: string, object: object) {
  return { ...stripeEvent(id, type, object), account };
}

/** The event's JSON and the Stripe-Signature header Stripe would send with it. */
export function signedWebhook(event: object, secret: string) {
  const payload = JSON.stringify(event);
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

/** Stripe posts from its servers: no Origin, no cookie, a signature header. */
export function deliverWebhook(
  app: { inject: (o: object) => Promise<LightMyRequestResponse> },
  payload: string,
  headers: Record<string, string>,
  url = '/api/payments/webhook',
) {
  return app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}
