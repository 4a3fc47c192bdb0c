import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client.ts';
import type { Fixtures } from '../fixtures.ts';
import { type LatencySummary, Samples } from '../load.ts';

// The booking flow under contention: many students request the same few free items for overlapping
// days while the owners approve at once. Each flow is "request, then approve": an approval may lose
// to another for the same days (409), a request may find the days already taken (409). Afterwards the
// database must show every accepted request (none lost) and no two approved bookings of an item on
// the same day (none double-booked).

export interface FlowResult {
  workers: number;
  seconds: number;
  flows: number;
  flowsPerSecond: number;
  approved: number;
  approvedPerSecond: number;
  /** Requests refused because the days were already booked. */
  requestConflicts: number;
  /** Approvals refused because another approval took the days first. */
  approveConflicts: number;
  errors: number;
  errorSamples: string[];
  requestMs: LatencySummary;
  approveMs: LatencySummary;
  /** Filled in by verifyFlow once the database can be read again. */
  check?: FlowCheck;
}

export interface FlowCheck {
  created: number;
  found: number;
  lost: number;
  doubleBooked: number;
  approvedNotApproved: number;
}

/** Ids the flow created and approved, for verifyFlow. */
export interface FlowLedger {
  created: string[];
  approved: string[];
  itemIds: string[];
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export async function runReservationFlow(options: {
  url: string;
  fixtures: Fixtures;
  workers: number;
  seconds: number;
  today: string;
}): Promise<{ result: FlowResult; ledger: FlowLedger }> {
  const { fixtures, url } = options;
  if (!fixtures.flowItems.length || !fixtures.borrowers.length) throw new Error('no free items to book');
  const requestMs = new Samples();
  const approveMs = new Samples();
  const ledger: FlowLedger = { created: [], approved: [], itemIds: fixtures.flowItems.map((f) => f.itemId) };
  let flows = 0;
  let requestConflicts = 0;
  let approveConflicts = 0;
  let errors = 0;
  const errorSamples: string[] = [];
  const fail = (what: string) => {
    errors++;
    if (errorSamples.length < 5) errorSamples.push(what);
  };
  const post = async (path: string, cookie: string, body?: unknown) => {
    const started = performance.now();
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, cookie },
      body: JSON.stringify(body ?? {}),
    });
    const json = (await response.json()) as {
      reservation?: { id: string; status: string };
      message?: string;
    };
    return { status: response.status, json, ms: performance.now() - started };
  };

  const deadline = performance.now() + options.seconds * 1000;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < deadline) {
      const target = fixtures.flowItems[Math.floor(Math.random() * fixtures.flowItems.length)]!;
      const borrower = fixtures.borrowers[Math.floor(Math.random() * fixtures.borrowers.length)]!;
      // Days well past the seeded bookings, a few weeks wide, so requests for one item often overlap.
      const startDate = addDays(options.today, 100 + Math.floor(Math.random() * 40));
      const endDate = addDays(startDate, Math.floor(Math.random() * 3));
      const request = await post('/api/reservations', borrower.cookie, {
        itemId: target.itemId,
        startDate,
        endDate,
      });
      requestMs.push(request.ms);
      if (request.status === 409) {
        requestConflicts++;
        flows++;
        continue;
      }
      if (request.status !== 201 || !request.json.reservation) {
        fail(`request ${request.status}: ${request.json.message}`);
        continue;
      }
      const id = request.json.reservation.id;
      ledger.created.push(id);
      const approve = await post(`/api/reservations/${id}/approve`, target.owner.cookie);
      approveMs.push(approve.ms);
      flows++;
      if (approve.status === 200 && approve.json.reservation?.status === 'approved') ledger.approved.push(id);
      else if (approve.status === 409) approveConflicts++;
      else fail(`approve ${approve.status}: ${approve.json.message}`);
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  const seconds = (performance.now() - started) / 1000;
  return {
    ledger,
    result: {
      workers: options.workers,
      seconds: Math.round(seconds * 100) / 100,
      flows,
      flowsPerSecond: Math.round((flows / seconds) * 10) / 10,
      approved: ledger.approved.length,
      approvedPerSecond: Math.round((ledger.approved.length / seconds) * 10) / 10,
      requestConflicts,
      approveConflicts,
      errors,
      errorSamples,
      requestMs: requestMs.summary(),
      approveMs: approveMs.summary(),
    },
  };
}

const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/** Reads the database after the flow: nothing lost, nothing booked twice, every approval stored. */
export async function verifyFlow(db: Db, ledger: FlowLedger): Promise<FlowCheck> {
  const one = async (query: ReturnType<typeof sql>) =>
    Number(((await db.execute<{ n: number }>(query)).rows[0] as { n: number } | undefined)?.n ?? 0);
  const found = await one(
    sql`select count(*)::int as n from reservations where id = any(${uuidArray(ledger.created)}::uuid[])`,
  );
  const doubleBooked = await one(sql`
    select count(*)::int as n from reservations a join reservations b
      on a.item_id = b.item_id and a.id < b.id
     and daterange(a.start_date, a.end_date, '[]') && daterange(b.start_date, b.end_date, '[]')
    where a.item_id = any(${uuidArray(ledger.itemIds)}::uuid[])
      and a.status in ('approved', 'active') and b.status in ('approved', 'active')`);
  const approvedNotApproved = await one(sql`
    select count(*)::int as n from reservations
    where id = any(${uuidArray(ledger.approved)}::uuid[]) and status <> 'approved'`);
  return {
    created: ledger.created.length,
    found,
    lost: ledger.created.length - found,
    doubleBooked,
    approvedNotApproved,
  };
}
