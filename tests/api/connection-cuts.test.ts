import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { withDatabase } from '../helpers/database-setup.ts';
import { day, VISA } from '../helpers/reservation-fixtures.ts';
import { type ServerProcess, startServer, stopServer } from '../helpers/server-process.ts';
import { createTestDatabase } from '../helpers/test-database.ts';
import { waitFor } from '../helpers/wait-for.ts';

// A real server process on PostgreSQL whose connections are all terminated, again and again, while
// lenders approve and borrowers cancel (their payment steps run in the process's job queue). The process
// stays up (an unhandled rejection from pg-boss's unawaited job outcomes ended it one run in five) and
// /api/ready comes back to ready once the terminations stop.

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('a server whose database connections are cut during payment work', () => {
  let database: Database;
  let server: ServerProcess;
  let inside: pg.Client;
  let name = '';
  let dataDir = '';

  beforeAll(async () => {
    database = await createTestDatabase();
    const { rows } = await database.db.execute<{ name: string }>(sql`select current_database() as name`);
    name = rows[0]!.name;
    inside = new pg.Client({ connectionString: withDatabase(url!, name) });
    await inside.connect();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-cuts-'));
    server = await startServer({ DATABASE_URL: withDatabase(url!, name), DATA_DIR: dataDir }, 90_000);
  });

  afterAll(async () => {
    if (server) await stopServer(server.process);
    await inside?.end();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, route: string, cookie: string, body?: unknown) => {
    const response = await fetch(`${server.url}${route}`, {
      method,
      headers: {
        origin: server.url,
        cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as never };
  };

  it('stays up, and is ready again after the cuts', async () => {
    // Paid requests, made before the cuts.
    const bookings: { lender: string; borrower: string; id: string }[] = [];
    for (let i = 0; i < 8; i++) {
      const lender = await createSignedInUser(database.db);
      const borrower = await createSignedInUser(database.db);
      const item = await createItem(database.db, {
        userId: lender.user.id,
        rentalPriceCents: 500,
        rentalPeriod: 'day',
        depositCents: 2000,
      });
      const dates = { itemId: item.id, startDate: day(2), endDate: day(3) };
      const quote = await call('POST', '/api/create-payment-intent', borrower.cookie, {
        ...dates,
        depositAmount: '20.00',
        rentalAmount: '5',
      });
      expect(quote.status).toBe(200);
      const { paymentIntentId } = quote.body as { paymentIntentId: string };
      await call('POST', '/api/payments/test/confirm', borrower.cookie, { paymentIntentId, card: VISA });
      const create = await call('POST', '/api/reservations', borrower.cookie, {
        ...dates,
        stripePaymentIntentId: paymentIntentId,
      });
      expect(create.status).toBe(201);
      bookings.push({
        lender: lender.cookie,
        borrower: borrower.cookie,
        id: (create.body as { reservation: { id: string } }).reservation.id,
      });
    }

    // Cuts for a few seconds, every 100 to 300 ms.
    let cuts = 0;
    const cutsEnd = Date.now() + 6000;
    const terminate = (async () => {
      while (Date.now() < cutsEnd) {
        await inside.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        );
        cuts++;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    })();
    // Meanwhile approvals, then cancellations of the approved ones (a capture, then a refund or a
    // release), each asked again a few times while it is answered 503 (the database is down).
    const act = async (b: (typeof bookings)[number]) => {
      const until = async (run: () => Promise<{ status: number }>) => {
        for (let attempt = 0; attempt < 8; attempt++) {
          const { status } = await run().catch(() => ({ status: 0 }));
          if (status !== 503 && status !== 0) return;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      await until(() => call('POST', `/api/reservations/${b.id}/approve`, b.lender));
      await until(() => call('PUT', `/api/reservations/${b.id}`, b.borrower, { status: 'cancelled' }));
    };
    await Promise.all([terminate, ...bookings.map(act)]);

    expect(cuts).toBeGreaterThan(5);
    expect(server.process.exitCode, server.output()).toBeNull();
    await waitFor(
      async () => (await fetch(`${server.url}/api/ready`).catch(() => null))?.status === 200,
      30_000,
      'GET /api/ready to answer 200',
    );
    expect(server.process.exitCode, server.output()).toBeNull();
  }, 180_000);
});
