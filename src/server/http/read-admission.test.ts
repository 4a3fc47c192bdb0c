import { connect } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { readAdmission } from './read-admission.ts';

// Only so many reads are worked on at once; changing requests never wait for a turn; a read gives its
// place back once its answer is ready, whichever way it ends; one that waited too long goes ahead.

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

async function appWith(concurrency: number, maxWaitMs?: number) {
  const admission = readAdmission(concurrency, maxWaitMs);
  const app = Fastify();
  await app.register(admission.plugin);
  const started: string[] = [];
  const gates = new Map<string, ReturnType<typeof deferred>>();
  const gate = (name: string) => {
    let g = gates.get(name);
    if (!g) {
      g = deferred();
      gates.set(name, g);
    }
    return g;
  };
  app.get('/read/:name', async (request) => {
    const { name } = request.params as { name: string };
    started.push(name);
    await gate(name).promise;
    if (name.startsWith('broken')) throw new Error('a read that fails');
    return { name };
  });
  app.post('/write', async () => {
    started.push('write');
    return { ok: true };
  });
  app.get('/socket', { config: { longLived: true } }, async () => {
    started.push('socket');
    await gate('socket').promise;
    return { ok: true };
  });
  return { app, admission, started, open: (name: string) => gate(name).resolve() };
}

describe('read admission', () => {
  it('works on at most its number of reads at once, in order; a write goes ahead of them', async () => {
    const { app, admission, started, open } = await appWith(2);
    const reads = ['a', 'b', 'c', 'd'].map((name) => app.inject({ url: `/read/${name}` }));
    await vi.waitFor(() => expect(started).toEqual(['a', 'b']));
    expect(admission.counts.waiting).toBe(2);
    const write = await app.inject({ method: 'POST', url: '/write' });
    expect(write.statusCode).toBe(200);
    expect(started).toEqual(['a', 'b', 'write']);
    open('b');
    await vi.waitFor(() => expect(started).toEqual(['a', 'b', 'write', 'c']));
    for (const name of ['a', 'c', 'd']) open(name);
    expect((await Promise.all(reads)).map((r) => r.json().name)).toEqual(['a', 'b', 'c', 'd']);
    expect([admission.counts.active, admission.counts.waiting, admission.counts.overdue]).toEqual([0, 0, 0]);
    await app.close();
  });

  it('takes its place back from a read that fails, and never counts a long-lived one', async () => {
    const { app, admission, started, open } = await appWith(1);
    const socket = app.inject({ url: '/socket' });
    const broken = app.inject({ url: '/read/broken' });
    await vi.waitFor(() => expect(started).toEqual(['socket', 'broken']));
    const next = app.inject({ url: '/read/next' });
    open('broken');
    expect((await broken).statusCode).toBe(500);
    open('next');
    expect((await next).json()).toEqual({ name: 'next' });
    open('socket');
    await socket;
    expect([admission.counts.active, admission.counts.waiting]).toEqual([0, 0]);
    await app.close();
  });

  it('lets a read that waited too long go ahead without a place, and gives that place back when it comes', async () => {
    const { app, admission, started, open } = await appWith(1, 20);
    const slow = app.inject({ url: '/read/slow' });
    await vi.waitFor(() => expect(started).toEqual(['slow']));
    const patient = app.inject({ url: '/read/patient' });
    await vi.waitFor(() => expect(started).toEqual(['slow', 'patient']));
    expect(admission.counts.overdue).toBe(1);
    open('patient');
    expect((await patient).statusCode).toBe(200);
    open('slow');
    expect((await slow).statusCode).toBe(200);
    // The late place was given back at once: nothing is held.
    await vi.waitFor(() => expect([admission.counts.active, admission.counts.waiting]).toEqual([0, 0]));
    const after = app.inject({ url: '/read/after' });
    open('after');
    expect((await after).statusCode).toBe(200);
    await app.close();
  });

  it('takes its place back from a read whose connection was cut while it waited', async () => {
    const { app, admission, started, open } = await appWith(1);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const slow = fetch(`http://127.0.0.1:${port}/read/slow`);
    await vi.waitFor(() => expect(started).toEqual(['slow']));
    // A phone that loses its signal while its read waits for a turn.
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('GET /read/cut HTTP/1.1\r\nHost: campus\r\n\r\n');
    await vi.waitFor(() => expect(admission.counts.waiting).toBe(1));
    socket.destroy();
    open('slow');
    expect((await slow).status).toBe(200);
    // The cut read's turn came and went at once: the next read is worked on without it answering.
    const after = fetch(`http://127.0.0.1:${port}/read/after`);
    await vi.waitFor(() => expect(started).toContain('after'));
    open('after');
    expect((await after).status).toBe(200);
    expect(admission.counts.overdue).toBe(0);
    open('cut');
    await vi.waitFor(() => expect([admission.counts.active, admission.counts.waiting]).toEqual([0, 0]));
    await app.close();
  });

  it('answers a long queue of reads that reply at once, each admitted on its own turn', async () => {
    const { app, admission, started, open } = await appWith(1, 60_000);
    app.get('/now', (_request, reply) => {
      reply.send('ok');
    });
    const first = app.inject({ url: '/read/first' });
    await vi.waitFor(() => expect(started).toEqual(['first']));
    // Were each admitted from inside the hooks of the read before it, the queue would nest as deep as
    // it is long and overflow the stack.
    const queued = Array.from({ length: 3000 }, () => app.inject({ url: '/now' }));
    await vi.waitFor(() => expect(admission.counts.waiting).toBe(3000));
    open('first');
    const answers = await Promise.all([first, ...queued]);
    expect(answers.filter((answer) => answer.statusCode !== 200)).toEqual([]);
    expect([admission.counts.active, admission.counts.waiting, admission.counts.overdue]).toEqual([0, 0, 0]);
    await app.close();
  });

  it('admits every read at once when off', async () => {
    const { app, started, open } = await appWith(0);
    const reads = ['a', 'b', 'c'].map((name) => app.inject({ url: `/read/${name}` }));
    await vi.waitFor(() => expect(started).toEqual(['a', 'b', 'c']));
    for (const name of ['a', 'b', 'c']) open(name);
    await Promise.all(reads);
    await app.close();
  });
});
