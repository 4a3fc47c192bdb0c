import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/composition/app.ts';
import type { Database } from '../../src/server/db/client.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Liveness (GET /api/health) and readiness (GET /api/ready), apart: a process whose database
// is away is alive, so nobody restarts it for nothing, but not ready, so no one is sent to it.

const t = setupTestApp();

describe('health and readiness', () => {
  it('answers both when everything is up', async () => {
    const health = await t.get('/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', database: t.database.kind });
    const ready = await t.get('/api/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'up', hub: 'up', jobs: 'up' });
  });

  it('stays alive but not ready, naming the database, while the database does not answer', async () => {
    // The same database, but every query fails as it does while the server is away. (A real outage of
    // PostgreSQL, hub included, is in database-outage.test.ts.)
    const away: Database = {
      ...t.database,
      db: new Proxy(t.database.db, {
        get(target, property) {
          if (property === 'execute')
            return async () => Promise.reject(new Error('Connection terminated unexpectedly'));
          return Reflect.get(target, property, target);
        },
      }),
    };
    const app = await buildApp({ config: t.config, database: away, logger: false });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('1');
      expect(ready.json()).toEqual({
        status: 'unavailable',
        database: 'down',
        hub: 'up',
        jobs: 'up',
        message: 'Not ready: the database is down.',
        code: 'NOT_READY',
      });
    } finally {
      await app.close();
    }
  });

  it('is not ready, naming the job queue, once the queue has stopped (shutting down)', async () => {
    const app = await buildApp({ config: t.config, database: t.database, logger: false });
    try {
      await app.jobs.stop();
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        status: 'unavailable',
        database: 'up',
        hub: 'up',
        jobs: 'down',
        message: 'Not ready: the job queue is down.',
        code: 'NOT_READY',
      });
    } finally {
      await app.close();
    }
  });
});
