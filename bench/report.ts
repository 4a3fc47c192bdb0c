import type { BenchResults } from './results.ts';
import type { BudgetGroup } from './scenarios/http.ts';

// Issue 7's budgets, checked against one run, and the terminal table.

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
} as const;

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

export function formatReport(results: BenchResults): string {
  const out: string[] = [];
  out.push(
    `CampusLoop bench: ${results.db} on ${results.machine.cpus} × ${results.machine.cpuModel}, ${results.date}`,
    `Baseline (bare Fastify, ${results.options.connections} connections): ${num(results.baseline.requestsPerSecond)} req/s ` +
      `(before ${num(results.baseline.before.requestsPerSecond)}, after ${num(results.baseline.after?.requestsPerSecond ?? 0)}), ` +
      `p99 ${results.baseline.before.latencyMs.p99.toFixed(2)} ms`,
    '',
  );
  const rows = [['scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'errors']];
  for (const s of Object.values(results.http)) {
    rows.push([
      s.title,
      String(s.connections),
      num(s.requestsPerSecond),
      s.latencyMs.p50.toFixed(2),
      s.latencyMs.p99.toFixed(2),
      pct(s.ratio),
      String(s.errors + s.non2xx + s.timeouts),
    ]);
  }
  out.push(table(rows), '');
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
