import { AsyncLocalStorage } from 'node:async_hooks';
import { ASK_LIMITS } from '#shared/asks.ts';
import { centsToDecimal, quote } from '#shared/booking/pricing.ts';
import { NO_PLATFORM_SHARE } from '#shared/booking/service-fee.ts';
import { checkoutsOf, serverMsOf, statementsOf } from '../../src/server/http/db-lanes.ts';
import { listingAt } from '../catalogue.ts';
import type { BookableItem, Fixtures, Person } from '../fixtures.ts';
import { type LatencySummary, Samples } from '../load.ts';
import { seededRandom } from '../popularity.ts';
import { BENCH_PASSWORD, CHAT_LINES } from '../seed.ts';

// The campus day's writers: students acting through the HTTP API as the web app does (same bodies,
// their own session cookies, the same-origin header), at a fixed rate whatever the server's speed.
// The scheduler is open-loop: a timer dispatches each write when its time comes and never waits for
// the previous one, so a slow server meets more writes at once instead of fewer (a closed loop would
// hide its slowness by asking less).

export const WRITE_KINDS = [
  'message',
  'read-mark',
  'reservation',
  'listing',
  'sign-in',
  'ask',
  'offer',
] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

/**
 * Share of the writes per kind: chat is what students do most, then opening what they were sent
 * (read marks), then asking to borrow, listing, and signing in on another device. Asking the campus
 * for something and offering a listing for an ask are rarer than listing: an ask is what a search
 * that found nothing leads to, and only a few neighbours answer each.
 */
export const WRITE_MIX: Record<WriteKind, number> = {
  message: 33,
  'read-mark': 19,
  reservation: 19,
  listing: 14,
  'sign-in': 9,
  ask: 3,
  offer: 3,
};

/** An ask posts a note; these read as students write them. */
const ASK_NOTES = [
  'Need it for a project this week, happy to pick it up anywhere on campus.',
  'Only for a couple of days. I will take good care of it.',
  'Anyone have one? Mine broke and the store is out.',
];

/** Asks a person may have open at once (ASK_LIMITS.openPerPerson): the writer tries someone else. */
const ASK_ATTEMPTS = 5;

/** Each write's costs, summed over its calls (writes run concurrently, so per async context). */
const writeCosts = new AsyncLocalStorage<{
  checkouts: number;
  statements: number;
  waitMs: number;
  serverMs: number;
}>();

export interface WriteKindResult {
  count: number;
  errors: number;
  latencyMs: LatencySummary;
  /**
   * Per write, over its calls, as the server's Server-Timing header says (http/db-lanes.ts): the
   * connections it took from the pools, and the milliseconds it waited for them.
   */
  checkouts?: { mean: number; max: number };
  /** Per write, over its calls: the statements the server sent (its round trips to the database). */
  statements?: { mean: number; max: number };
  poolWaitMs?: LatencySummary;
  /**
   * Per write, over its calls: the server's own milliseconds from each request's arrival to its answer
   * (Server-Timing `app`). The latency above is as the bench saw it, which on these two shared cores
   * also holds the bench process's own delays (see the timer lag) and the kernel's queues.
   */
  serverMs?: LatencySummary;
}

export interface WriteResult {
  /** The fixed rate asked for. */
  perSecond: number;
  seconds: number;
  dispatched: number;
  completed: number;
  /** Writes that did not end in a 2xx answer (or had no answer). */
  errors: number;
  errorSamples: string[];
  /** From dispatch to the last answer of the action (a paid request is three calls). */
  latencyMs: LatencySummary;
  /** How late the bench's own timer dispatched writes (the load generator shares its event loop). */
  dispatchLagMs: LatencySummary;
  byKind: Record<string, WriteKindResult>;
}

/** Stripe's test Visa, expiring a few years from now. */
const TEST_CARD = {
  number: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 4,
  cvc: '123',
};

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
const weekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();

/**
 * Dates the item may be booked for: starting 60 to 360 days ahead (past every seeded approval, see
 * fixtures.ts), on its weekdays and inside its window, one to four days long. From a random start the
 * first of its weekdays is taken (fixtures give every item at least two weeks of window), so there is
 * always an answer.
 */
export function bookingDates(item: BookableItem, today: string, random: () => number) {
  const earliest = addDays(today, 60);
  const from = item.availableFrom > earliest ? item.availableFrom : earliest;
  const last =
    item.availableUntil && item.availableUntil < addDays(from, 300)
      ? item.availableUntil
      : addDays(from, 300);
  const span = Math.max(1, Math.round((Date.parse(last) - Date.parse(from)) / 86_400_000) + 1);
  const first = Math.floor(random() * span);
  for (let d = 0; d < span; d++) {
    const startDate = addDays(from, (first + d) % span);
    if (!item.days.includes(weekday(startDate))) continue;
    for (let length = Math.floor(random() * 4); length >= 0; length--) {
      const endDate = addDays(startDate, length);
      if (endDate <= last && item.days.includes(weekday(endDate))) return { startDate, endDate };
    }
  }
  return undefined;
}

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

export function startWriters(options: {
  url: string;
  fixtures: Fixtures;
  perSecond: number;
  today: string;
  /** Listing numbers for new listings start here (past the seeded ones, so titles go on varying). */
  firstNewListing: number;
  seed?: number;
  /** Another mix than WRITE_MIX (the bench's test runs each kind alone). */
  mix?: Partial<Record<WriteKind, number>>;
}): { stop(): Promise<WriteResult> } {
  const { url, fixtures, perSecond, today } = options;
  const random = seededRandom(options.seed ?? 25);
  const any = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const kinds = Object.entries(options.mix ?? WRITE_MIX) as [WriteKind, number][];
  const totalWeight = kinds.reduce((s, [, w]) => s + w, 0);
  const free = fixtures.bookable.filter((b) => !b.priceCents && !b.depositCents);
  const paid = fixtures.bookable.filter((b) => b.priceCents || b.depositCents);
  let nextListing = options.firstNewListing;
  const campusOf = new Map(fixtures.everyone.map((p) => [p.userId, p.campus]));
  const personOf = new Map(fixtures.everyone.map((p) => [p.userId, p]));
  /** This writer's open asks, and which items were offered for each (one offer per item and ask). */
  const openAsks: { id: string; askerId: string; campus: string; offered: Set<string> }[] = [];

  const post = async (path: string, person: Person | undefined, body: unknown): Promise<Answer> => {
    const cost = writeCosts.getStore();
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        origin: url,
        ...(person ? { cookie: person.cookie } : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const timing = response.headers.get('server-timing') ?? '';
    if (cost) {
      cost.checkouts += checkoutsOf(timing) ?? 0;
      cost.statements += statementsOf(timing) ?? 0;
      cost.waitMs += Number(/dur=([\d.]+)/.exec(timing)?.[1] ?? 0);
      cost.serverMs += serverMsOf(timing) ?? 0;
    }
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = { message: text.slice(0, 200) };
    }
    return { status: response.status, json };
  };
  /** A call that must answer 2xx, or the write fails with what it answered. */
  const must = async (path: string, person: Person | undefined, body: unknown) => {
    const answer = await post(path, person, body);
    if (answer.status < 200 || answer.status >= 300) {
      throw new Error(`POST ${path} → ${answer.status}: ${String(answer.json.message ?? '').slice(0, 160)}`);
    }
    return answer.json;
  };

  const actions: Record<WriteKind, () => Promise<unknown>> = {
    message: () => {
      const c = any(fixtures.conversations);
      return must(`/api/conversations/${c.id}/messages`, random() < 0.5 ? c.buyer : c.seller, {
        content: any(CHAT_LINES),
      });
    },
    'read-mark': () => {
      if (random() < 2 / 3) {
        const c = any(fixtures.conversations);
        return must(`/api/conversations/${c.id}/read`, random() < 0.5 ? c.buyer : c.seller, {});
      }
      return must('/api/notifications/read-all', any(fixtures.everyone), {});
    },
    reservation: async () => {
      // Half the requests are for free items (one call), half for paid ones: the Reserve dialog's
      // payment intent, the card confirmed by the test provider, then the request.
      const list = (random() < 0.5 && free.length) || !paid.length ? free : paid;
      const item = any(list);
      let borrower = any(fixtures.everyone);
      if (borrower.userId === item.ownerId)
        borrower = fixtures.everyone.find((p) => p.userId !== item.ownerId)!;
      const dates = bookingDates(item, today, random);
      if (!dates) throw new Error(`no bookable dates found for item ${item.itemId} (a bench bug)`);
      const body = { itemId: item.itemId, ...dates };
      const price = quote(
        { rentalPriceCents: item.priceCents, rentalPeriod: item.period, depositCents: item.depositCents },
        dates.startDate,
        dates.endDate,
        // Only the rental and the deposit are sent; the server adds its own service fee.
        NO_PLATFORM_SHARE,
      );
      if (price.totalCents === 0) return must('/api/reservations', borrower, body);
      const intent = await must('/api/create-payment-intent', borrower, {
        ...body,
        depositAmount: centsToDecimal(price.depositCents),
        rentalAmount: centsToDecimal(price.rentalCents),
      });
      const paymentIntentId = String(intent.paymentIntentId);
      await must('/api/payments/test/confirm', borrower, { paymentIntentId, card: TEST_CARD });
      return must('/api/reservations', borrower, { ...body, stripePaymentIntentId: paymentIntentId });
    },
    listing: () => {
      const l = listingAt(nextListing++);
      const photos = fixtures.photosByCategory[l.category] ?? Object.values(fixtures.photosByCategory).flat();
      return must('/api/items', any(fixtures.everyone), {
        title: l.title,
        description: l.description,
        category: l.category,
        condition: l.condition,
        pickupMethod: l.pickup,
        rentalPrice: l.priceCents ? centsToDecimal(l.priceCents) : '',
        rentalPeriod: l.period,
        depositAmount: l.depositCents ? centsToDecimal(l.depositCents) : '',
        pickupLocation: 'Student union, front desk',
        availableFrom: today,
        availableUntil: null,
        availableDays: l.days,
        images: photos.length ? [any(photos)] : [],
      });
    },
    'sign-in': () => {
      const p = any(fixtures.everyone);
      return must('/api/auth/login', undefined, { email: p.email, password: BENCH_PASSWORD });
    },
    ask: () => askCampus(),
    offer: async () => {
      // A neighbour offers one of their listings for an open ask of their campus; with none open yet
      // (the offers-only test run), someone asks first.
      for (let attempt = 0; attempt < ASK_ATTEMPTS; attempt++) {
        const asked = openAsks.length ? any(openAsks) : await askCampus();
        // From a random place in the list, the first listing of that campus not the asker's nor offered.
        const from = Math.floor(random() * fixtures.bookable.length);
        const item = [...fixtures.bookable.slice(from), ...fixtures.bookable.slice(0, from)].find(
          (b) =>
            b.ownerId !== asked.askerId &&
            campusOf.get(b.ownerId) === asked.campus &&
            !asked.offered.has(b.itemId),
        );
        if (!item) continue;
        asked.offered.add(item.itemId);
        return must(`/api/asks/${asked.id}/offers`, personOf.get(item.ownerId), { itemId: item.itemId });
      }
      throw new Error('no listing found to offer for an open ask (a bench bug)');
    },
  };

  async function askCampus() {
    const l = listingAt(nextListing++);
    const startDate = addDays(today, 1 + Math.floor(random() * 14));
    const body = {
      title: l.title.slice(0, ASK_LIMITS.titleMax),
      category: l.category,
      note: any(ASK_NOTES),
      startDate,
      endDate: addDays(startDate, Math.floor(random() * 4)),
      maxPrice: random() < 0.4 ? 'free' : String(5 + Math.floor(random() * 20)),
    };
    for (let attempt = 0; ; attempt++) {
      const asker = any(fixtures.everyone);
      const answer = await post('/api/asks', asker, body);
      // Five asks open already (a long run): that student would close one first; another asks instead.
      if (answer.status === 409 && answer.json.code === 'TOO_MANY_ASKS' && attempt < ASK_ATTEMPTS) continue;
      if (answer.status !== 201) {
        throw new Error(
          `POST /api/asks → ${answer.status}: ${String(answer.json.message ?? '').slice(0, 160)}`,
        );
      }
      const asked = {
        id: String((answer.json.ask as { id: string }).id),
        askerId: asker.userId,
        campus: asker.campus,
        offered: new Set<string>(),
      };
      openAsks.push(asked);
      return asked;
    }
  }

  const latency = new Samples();
  const lag = new Samples();
  const byKind = new Map<
    WriteKind,
    {
      latency: Samples;
      count: number;
      errors: number;
      checkouts: number[];
      statements: number[];
      wait: Samples;
      server: Samples;
    }
  >(
    kinds.map(([k]) => [
      k,
      {
        latency: new Samples(),
        count: 0,
        errors: 0,
        checkouts: [],
        statements: [],
        wait: new Samples(),
        server: new Samples(),
      },
    ]),
  );
  const errorSamples: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let dispatched = 0;
  let completed = 0;
  let errors = 0;

  const dispatch = (kind: WriteKind) => {
    const entry = byKind.get(kind)!;
    const started = performance.now();
    const cost = { checkouts: 0, statements: 0, waitMs: 0, serverMs: 0 };
    const done = writeCosts
      .run(cost, () => actions[kind]())
      .then(
        () => {
          const ms = performance.now() - started;
          latency.push(ms);
          entry.latency.push(ms);
          entry.checkouts.push(cost.checkouts);
          entry.statements.push(cost.statements);
          entry.wait.push(cost.waitMs);
          entry.server.push(cost.serverMs);
        },
        (error: unknown) => {
          errors++;
          entry.errors++;
          if (errorSamples.length < 8) errorSamples.push(`${kind}: ${(error as Error).message}`);
        },
      )
      .finally(() => {
        completed++;
        entry.count++;
        inFlight.delete(done);
      });
    inFlight.add(done);
  };

  const chooseKind = (): WriteKind => {
    let r = random() * totalWeight;
    for (const [kind, weight] of kinds) {
      r -= weight;
      if (r < 0) return kind;
    }
    return kinds[0]![0];
  };

  const started = performance.now();
  // Every few milliseconds, dispatch every write whose time has come: write k (from 0) is due at
  // (k + 1) / rate seconds. A late timer (a busy event loop) dispatches the overdue ones at once and
  // records the lag: how long after its time each write went.
  const timer =
    perSecond > 0
      ? setInterval(() => {
          const now = performance.now();
          const due = Math.floor(((now - started) / 1000) * perSecond);
          while (dispatched < due) {
            lag.push(now - (started + ((dispatched + 1) * 1000) / perSecond));
            dispatched++;
            dispatch(chooseKind());
          }
        }, 5)
      : undefined;

  return {
    async stop() {
      if (timer) clearInterval(timer);
      const seconds = (performance.now() - started) / 1000;
      // The writes already sent are measured to their answer, however slow.
      await Promise.all([...inFlight]);
      return {
        perSecond,
        seconds: Math.round(seconds * 100) / 100,
        dispatched,
        completed,
        errors,
        errorSamples,
        latencyMs: latency.summary(),
        dispatchLagMs: lag.summary(),
        byKind: Object.fromEntries(
          [...byKind].map(([kind, e]) => [
            kind,
            {
              count: e.count,
              errors: e.errors,
              latencyMs: e.latency.summary(),
              checkouts: meanAndMax(e.checkouts),
              statements: meanAndMax(e.statements),
              poolWaitMs: e.wait.summary(),
              serverMs: e.server.summary(),
            },
          ]),
        ),
      };
    },
  };
}

function meanAndMax(values: readonly number[]) {
  return {
    mean: values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0,
    max: Math.max(0, ...values),
  };
}
