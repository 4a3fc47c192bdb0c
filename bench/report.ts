import type { BaselineBeside } from './baseline-beside.ts';
import { type CpuUse, cpuSummary } from './cpu.ts';
import type { BenchResults } from './results.ts';
import type { BudgetGroup } from './scenarios/http.ts';
import type { WarmupDone } from './warm-up.ts';

// The page-speed and campus-day budgets (docs/performance.md), checked against one run, and the terminal table.

/** Minimum share of the bare-Fastify baseline's requests a second, per scenario group. */
export const RATIO_BUDGETS: Record<BudgetGroup, number> = { list: 0.2, search: 0.1, detail: 0.3, poll: 0.4 };
export const BUDGETS = {
  /** p99 at 50 connections for every budgeted HTTP scenario (binding on PostgreSQL). */
  p99Ms: 25,
  chatDeliveryP99Ms: 20,
  /** What 1,000 sockets may cost the server (see docs/performance.md for how it is read). */
  chatRssMb: 300,
  homeJsGzipKb: 140,
  lcpMs: 2000,
  /** A restart on an existing build, embedded database, to the first answered request. */
  pgliteRestartMs: 3000,
} as const;

/**
 * The campus day (binding on PostgreSQL; ratios to the same run's bare Fastify): the campus-day mix at a
 * writes-per-second rate, and each read class alone with every read cache off.
 */
export const CAMPUS_DAY_BUDGETS = {
  mix: [
    { writesPerSecond: 5, minRatio: 0.15, p99Ms: 50, writeP99Ms: 250 },
    { writesPerSecond: 25, minRatio: 0.1 },
  ] as { writesPerSecond: number; minRatio: number; p99Ms?: number; writeP99Ms?: number }[],
  cachesOff: {
    home: { minRatio: 0.03 },
    browse: { minRatio: 0.03 },
    search: { minRatio: 0.03, p99Ms: 60 },
    item: { minRatio: 0.03 },
    profile: { minRatio: 0.03 },
    polls: { minRatio: 0.08 },
  } as Record<string, { minRatio: number; p99Ms?: number }>,
  /**
   * The embedded database must reach at least half of each figure: half the share of the baseline,
   * twice the p99 (it runs single-threaded inside the server process).
   */
  pgliteFactor: 0.5,
};

export interface BudgetCheck {
  budget: string;
  subject: string;
  limit: string;
  actual: string;
  pass: boolean;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export function checkBudgets(results: BenchResults): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  for (const scenario of Object.values(results.http)) {
    if (!scenario.budget) continue;
    const min = RATIO_BUDGETS[scenario.budget];
    checks.push({
      budget: `${scenario.budget} share of baseline`,
      subject: scenario.name,
      limit: `≥ ${pct(min)}`,
      actual: pct(scenario.ratio),
      pass: scenario.ratio >= min,
    });
    if (scenario.connections === 50) {
      checks.push({
        budget: 'p99 at 50 connections',
        subject: scenario.name,
        limit: `≤ ${BUDGETS.p99Ms} ms`,
        actual: `${scenario.latencyMs.p99.toFixed(1)} ms`,
        pass: scenario.latencyMs.p99 <= BUDGETS.p99Ms,
      });
    }
  }
  const chat = results.chat;
  if (chat) {
    checks.push({
      budget: 'chat delivery p99',
      subject: `${chat.sockets} sockets, ${chat.messagesPerSecond} msg/s`,
      limit: `≤ ${BUDGETS.chatDeliveryP99Ms} ms`,
      actual: `${chat.deliveryMs.p99.toFixed(1)} ms`,
      pass: chat.deliveryMs.p99 <= BUDGETS.chatDeliveryP99Ms && chat.lost === 0,
    });
    // On PostgreSQL the server process holds only the app: its whole RSS counts. Embedded, the
    // database lives in the same process (about 700 MB of WebAssembly heap), so the sockets' cost
    // is the growth from before they connected to the peak.
    const embedded = results.db === 'pglite';
    const { before, peak } = chat.rssMb;
    if (peak !== null && before !== null) {
      const actual = embedded ? peak - before : peak;
      checks.push({
        budget: embedded ? 'chat RSS growth (embedded db)' : 'chat server RSS',
        subject: `${chat.sockets} sockets`,
        limit: `≤ ${BUDGETS.chatRssMb} MB`,
        actual: `${actual} MB`,
        pass: actual <= BUDGETS.chatRssMb,
      });
    }
  }
  const web = results.web;
  if (web) {
    checks.push({
      budget: 'home JS before interactive',
      subject: 'gzip',
      limit: `≤ ${BUDGETS.homeJsGzipKb} KB`,
      actual: `${web.homeJsBeforeInteractiveGzipKb.toFixed(1)} KB`,
      pass: web.homeJsBeforeInteractiveGzipKb <= BUDGETS.homeJsGzipKb,
    });
    for (const page of web.vitals) {
      checks.push({
        budget: 'LCP (phone, 4x CPU, slow 4G)',
        subject: page.page,
        limit: `≤ ${BUDGETS.lcpMs} ms`,
        actual: `${page.lcpMs} ms`,
        pass: page.lcpMs <= BUDGETS.lcpMs,
      });
    }
  }
  // The median of the starts: the first one follows the bench's own seeding, the rest restart a server
  // that stopped, as `npm start` after a stop does.
  if (results.coldStart && results.db === 'pglite') {
    checks.push({
      budget: 'restart on an existing build',
      subject: `median of ${results.coldStart.ms.length} starts`,
      limit: `≤ ${BUDGETS.pgliteRestartMs} ms`,
      actual: `${results.coldStart.medianMs} ms`,
      pass: results.coldStart.medianMs <= BUDGETS.pgliteRestartMs,
    });
  }
  checks.push(...campusDayChecks(results));
  if (results.flow?.check) {
    const c = results.flow.check;
    checks.push({
      budget: 'booking integrity',
      subject: 'reservation flow',
      limit: '0 lost, 0 double-booked',
      actual: `${c.lost} lost, ${c.doubleBooked} double-booked, ${c.approvedNotApproved} approvals missing`,
      pass: c.lost === 0 && c.doubleBooked === 0 && c.approvedNotApproved === 0,
    });
  }
  return checks;
}

function campusDayChecks(results: BenchResults): BudgetCheck[] {
  const day = results.campusDay;
  if (!day) return [];
  const factor = results.db === 'pglite' ? CAMPUS_DAY_BUDGETS.pgliteFactor : 1;
  const checks: BudgetCheck[] = [];
  const check = (
    subject: string,
    load: { ratio: number; requests: number; latencyMs: { p99: number } },
    minRatio: number,
    p99Ms?: number,
  ) => {
    const min = minRatio * factor;
    checks.push({
      budget: 'campus-day share of baseline',
      subject,
      limit: `≥ ${pct(min)}`,
      actual: pct(load.ratio),
      pass: load.ratio >= min,
    });
    if (p99Ms !== undefined) {
      const max = p99Ms / factor;
      checks.push({
        budget: 'campus-day p99',
        subject,
        limit: `≤ ${max} ms`,
        // A run that got no answer at all has no p99 to speak of: it fails.
        actual: load.requests ? `${load.latencyMs.p99.toFixed(1)} ms` : 'no answers',
        pass: load.requests > 0 && load.latencyMs.p99 <= max,
      });
    }
  };
  for (const budget of CAMPUS_DAY_BUDGETS.mix) {
    const run = day.runs.find((r) => r.writesPerSecond === budget.writesPerSecond);
    if (!run) continue;
    check(`mix, ${budget.writesPerSecond} writes/s`, run.reads, budget.minRatio, budget.p99Ms);
    if (budget.writeP99Ms !== undefined) {
      // The writes themselves, as the bench saw each one over all its calls (a paid request's three).
      const max = budget.writeP99Ms / factor;
      const w = run.writes;
      checks.push({
        budget: 'campus-day write p99',
        subject: `mix, ${budget.writesPerSecond} writes/s`,
        limit: `≤ ${max} ms`,
        actual: w.completed ? `${w.latencyMs.p99.toFixed(1)} ms` : 'no writes',
        pass: w.completed > 0 && w.errors === 0 && w.latencyMs.p99 <= max,
      });
    }
  }
  for (const [cls, budget] of Object.entries(CAMPUS_DAY_BUDGETS.cachesOff)) {
    const load = day.cachesOff[cls];
    if (load) check(`${cls}, caches off`, load, budget.minRatio, budget.p99Ms);
  }
  return checks;
}

/** How long a window's warm-up ran, on how many reads, and whether the catalogue's hits had levelled off. */
function warmupLine(w: WarmupDone): string {
  const reads = `${w.seconds} s, ${num(w.requests)} reads`;
  if (w.kind === 'fixed') return `${reads} (fixed)`;
  const last = w.lastSliceHitRatio === null ? '–' : pct(w.lastSliceHitRatio);
  return `${reads}; catalogue hits ${last} in its last slice, ${w.steady ? 'levelled off' : 'still rising at the cap'}`;
}

/** The campus-day tables: each run's reads and writes, reads per class, and the caches-off runs. */
function formatCampusDay(
  day: NonNullable<BenchResults['campusDay']>,
  connections: number,
  /** `steady`, or seconds of the mix before each window (older results did not record it: 3). */
  warmup: unknown,
): string[] {
  const before =
    warmup === 'steady'
      ? 'the same mix at its write rate until the catalogue’s hit ratio stopped rising'
      : `${warmup ?? 3} s of the same mix at its write rate`;
  const out: string[] = [
    `Campus day: ${num(day.catalogueItems)} items, ${num(day.searches)} distinct searches ` +
      `(${day.searchesFinding} of ${day.searchesSampled} sampled find items); each window after ` +
      `${before}; reads over ${connections} connections, mix ` +
      Object.entries(day.readMix)
        .map(([k, v]) => `${k} ${v} %`)
        .join(', ') +
      '; writes ' +
      Object.entries(day.writeMix)
        .map(([k, v]) => `${k} ${v} %`)
        .join(', '),
    '',
  ];
  if (day.runs.length) {
    const rows = [
      [
        'writes/s',
        'reads req/s',
        'bare beside',
        'ratio',
        'p50 ms',
        'p99 ms',
        'bad reads',
        'writes done',
        'write p50',
        'write p99',
        'write errors',
        'timer lag p99',
      ],
    ];
    for (const run of day.runs) {
      const r = run.reads;
      const w = run.writes;
      rows.push([
        String(run.writesPerSecond),
        num(r.requestsPerSecond),
        besideOf(r),
        pct(r.ratio),
        r.latencyMs.p50.toFixed(2),
        r.latencyMs.p99.toFixed(2),
        String(r.non2xx + r.errors + r.timeouts),
        `${w.completed} (${(w.completed / Math.max(w.seconds, 0.001)).toFixed(1)}/s)`,
        w.completed ? w.latencyMs.p50.toFixed(1) : '–',
        w.completed ? w.latencyMs.p99.toFixed(1) : '–',
        String(w.errors),
        w.dispatched ? w.dispatchLagMs.p99.toFixed(1) : '–',
      ]);
    }
    out.push(table(rows), '');
    for (const run of day.runs) {
      if (run.warmup) out.push(`  warm-up at ${run.writesPerSecond} writes/s: ${warmupLine(run.warmup)}`);
      const byClass = run.reads.byLabel ?? {};
      out.push(
        `  reads at ${run.writesPerSecond} writes/s: ` +
          Object.entries(byClass)
            .map(
              ([c, l]) =>
                `${c} ${num(l.requestsPerSecond)}/s p99 ${l.latencyMs.p99.toFixed(1)} ms${l.non2xx ? ` (${l.non2xx} non-2xx)` : ''}`,
            )
            .join('; '),
      );
      const kinds = Object.entries(run.writes.byKind).filter(([, k]) => k.count);
      if (kinds.length) {
        out.push(
          `  writes at ${run.writesPerSecond} writes/s: ` +
            kinds
              .map(
                ([k, v]) =>
                  `${k} ${v.count} p50 ${v.latencyMs.p50.toFixed(1)} p99 ${v.latencyMs.p99.toFixed(1)} ms` +
                  (v.checkouts ? `, ${v.checkouts.mean.toFixed(1)} checkouts` : '') +
                  (v.statements ? `, ${v.statements.mean.toFixed(1)} statements` : '') +
                  (v.poolWaitMs ? `, pool wait p50 ${v.poolWaitMs.p50.toFixed(1)} ms` : '') +
                  (v.serverMs
                    ? `, in the server p50 ${v.serverMs.p50.toFixed(1)} p99 ${v.serverMs.p99.toFixed(1)} ms`
                    : '') +
                  (v.errors ? ` (${v.errors} errors)` : ''),
              )
              .join('; '),
        );
      }
      const caches = Object.entries(run.caches ?? {}).filter(([, c]) => c.hits + c.misses);
      if (caches.length) {
        out.push(
          `  read caches at ${run.writesPerSecond} writes/s: ` +
            caches
              .map(
                ([name, c]) =>
                  `${name} ${((c.hitRatio ?? 0) * 100).toFixed(1)} % hits of ${num(c.hits + c.misses)} lookups` +
                  (c.entries === undefined
                    ? ''
                    : ` (${num(c.entries)} held${c.bytes ? `, ${(c.bytes / 1024 / 1024).toFixed(1)} MB` : ''})`),
              )
              .join('; '),
        );
      }
      if (run.gc) {
        const kinds = Object.entries(run.gc.byKind)
          .filter(([, ms]) => ms > 0)
          .map(([kind, ms]) => `${kind} ${ms.toFixed(1)}`)
          .join(', ');
        out.push(
          `  garbage collection at ${run.writesPerSecond} writes/s: ${run.gc.msPerSecond.toFixed(1)} ms a second` +
            (kinds ? ` (${kinds})` : ''),
        );
      }
      if (run.memory) {
        const mb = (bytes: number) => `${num(Math.round(bytes / 1024 / 1024))} MB`;
        out.push(
          `  server memory as the window ended at ${run.writesPerSecond} writes/s: resident ${mb(run.memory.resident)}, ` +
            `heap used ${mb(run.memory.heapUsed)}, outside the heap ${mb(run.memory.external)}`,
        );
      }
      for (const [c, l] of Object.entries(byClass))
        for (const f of l.failures) out.push(`  BAD READ (${c}): ${f}`);
      for (const e of run.writes.errorSamples) out.push(`  WRITE ERROR: ${e}`);
    }
    out.push('');
  }
  const off = Object.entries(day.cachesOff);
  if (off.length) {
    const rows = [
      ['read class, caches off', 'req/s', 'bare beside', 'ratio', 'p50 ms', 'p99 ms', 'bad reads'],
    ];
    for (const [cls, r] of off) {
      rows.push([
        cls,
        num(r.requestsPerSecond),
        besideOf(r),
        pct(r.ratio),
        r.latencyMs.p50.toFixed(2),
        r.latencyMs.p99.toFixed(2),
        String(r.non2xx + r.errors + r.timeouts),
      ]);
    }
    out.push(table(rows));
    for (const [cls, r] of off)
      for (const f of r.byLabel?.[cls]?.failures ?? []) out.push(`  BAD READ (${cls}): ${f}`);
    out.push('');
  }
  const measured: [string, CpuUse][] = [];
  for (const r of day.runs) if (r.cpu?.serverMs) measured.push([`mix, ${r.writesPerSecond} writes/s`, r.cpu]);
  for (const [cls, r] of off) if (r.cpu?.serverMs) measured.push([`${cls}, caches off`, r.cpu]);
  if (measured.length) out.push(...cpuTable(measured), '');
  return out;
}

/**
 * Where the CPU went in each measured window. Work done, not time waited: true on a busy host too,
 * where "other processes" says how busy. The server thread's columns are shares of the wall time: near
 * 100 % together, the server never waited for the database; its waiting share is the time the other
 * processes (PostgreSQL's backends, the load generator) held both cores while it had work.
 */
function cpuTable(measured: [string, CpuUse][]): string[] {
  const rows = [
    [
      'run',
      'reads/s',
      'server CPU ms/req',
      'PostgreSQL CPU ms/req',
      'server',
      'PostgreSQL',
      'load generator',
      'other processes',
      'server thread running',
      'waiting for a core',
    ],
  ];
  for (const [name, use] of measured) {
    const c = cpuSummary(use);
    rows.push([
      name,
      num(Math.round(use.seconds > 0 ? use.requests / use.seconds : 0)),
      c.serverMsPerRequest.toFixed(2),
      c.postgresMsPerRequest.toFixed(2),
      pct(c.serverShare),
      pct(c.postgresShare),
      pct(c.loadGeneratorShare),
      pct(c.otherShare),
      c.serverThreadRunShare === undefined ? '–' : pct(c.serverThreadRunShare),
      c.serverThreadWaitShare === undefined ? '–' : pct(c.serverThreadWaitShare),
    ]);
  }
  return [
    `Where the CPU went (shares of ${measured[0]![1].cores} cores over each measured window):`,
    table(rows),
  ];
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r, n) => {
      const line = r
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('  ');
      return n === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

const num = (x: number) => x.toLocaleString('en-US');

/** The bare-Fastify windows a ratio was read against: their mean, and each side. */
const besideOf = (load: { beside?: BaselineBeside }) =>
  load.beside
    ? `${num(load.beside.requestsPerSecond)} (${num(load.beside.before)} → ${num(load.beside.after)})`
    : 'run’s';

export function formatReport(results: BenchResults): string {
  const out: string[] = [];
  out.push(
    `CampusLoop bench: ${results.db} on ${results.machine.cpus} × ${results.machine.cpuModel}, ${results.date}`,
    `Baseline (bare Fastify, ${results.options.connections} connections): ${num(results.baseline.requestsPerSecond)} req/s ` +
      `(before ${num(results.baseline.before.requestsPerSecond)}, after ${num(results.baseline.after?.requestsPerSecond ?? 0)}), ` +
      `p99 ${results.baseline.before.latencyMs.p99.toFixed(2)} ms; each ratio is to the bare Fastify measured ` +
      'right before and after its scenario ("bare beside"), or to this one ("run’s")',
    '',
  );
  const rows = [['scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'bare beside', 'ratio', 'errors']];
  for (const s of Object.values(results.http)) {
    rows.push([
      s.title,
      String(s.connections),
      num(s.requestsPerSecond),
      s.latencyMs.p50.toFixed(2),
      s.latencyMs.p99.toFixed(2),
      besideOf(s),
      pct(s.ratio),
      String(s.errors + s.non2xx + s.timeouts),
    ]);
  }
  if (rows.length > 1) out.push(table(rows), '');
  if (results.campusDay) {
    out.push(
      ...formatCampusDay(results.campusDay, results.options.connections, results.options['campus-warmup']),
    );
  }
  if (results.flow) {
    const f = results.flow;
    out.push(
      `Reservation flow (${f.workers} workers, ${f.seconds} s): ${f.flowsPerSecond} flows/s, ${f.approvedPerSecond} approvals/s; ` +
        `request p50/p99 ${f.requestMs.p50.toFixed(1)}/${f.requestMs.p99.toFixed(1)} ms, approve ${f.approveMs.p50.toFixed(1)}/${f.approveMs.p99.toFixed(1)} ms; ` +
        `${f.requestConflicts} request and ${f.approveConflicts} approval conflicts, ${f.errors} errors` +
        (f.check ? `; check: ${f.check.lost} lost, ${f.check.doubleBooked} double-booked` : ''),
    );
  }
  if (results.chat) {
    const c = results.chat;
    out.push(
      `Chat (${c.sockets} sockets, ${c.sentPerSecond} of ${c.messagesPerSecond} msg/s sent for ${c.seconds} s): delivery p50/p99 ${c.deliveryMs.p50.toFixed(2)}/${c.deliveryMs.p99.toFixed(2)} ms, ` +
        `confirm p99 ${c.confirmMs.p99.toFixed(2)} ms, ${c.delivered}/${c.sent} delivered, ${c.errors} errors; ` +
        `server RSS ${c.rssMb.before} → ${c.rssMb.connected} (peak ${c.rssMb.peak}) MB, ${c.kbPerSocket} KB a socket`,
    );
  }
  if (results.upload) {
    const u = results.upload;
    out.push(
      `Upload (${u.photos} photos, ${u.megabytesPerRound} MB a round): median ${u.medianSeconds} s, max ${u.maxSeconds} s to processed URLs`,
    );
  }
  if (results.coldStart) {
    out.push(
      `Cold start to first answered request: ${results.coldStart.ms.join(', ')} ms (median ${results.coldStart.medianMs} ms)`,
    );
  }
  if (results.web) {
    const w = results.web;
    out.push(
      `Web: home JS before interactive ${w.homeJsBeforeInteractiveGzipKb.toFixed(1)} KB gzip; ` +
        w.vitals.map((v) => `${v.page} LCP ${v.lcpMs} ms, TBT ${v.tbtMs} ms`).join('; '),
    );
  }
  out.push('', 'Budgets:');
  const checks = results.budgets;
  out.push(
    table([
      ['budget', 'subject', 'limit', 'actual', ''],
      ...checks.map((c) => [c.budget, c.subject, c.limit, c.actual, c.pass ? 'ok' : 'MISSED']),
    ]),
  );
  return out.join('\n');
}
