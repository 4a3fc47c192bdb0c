import { readFileSync } from 'node:fs';
import type { BenchResults } from './results.ts';

// `npx tsx bench/markdown.ts bench/results/<file>.json [<before>.json]`: the run's figures as the
// Markdown tables of docs/performance.md, so the page is pasted from a results file, never retyped.
// With a second file, the HTTP table gains that run's requests a second as "before".

const [file, beforeFile] = process.argv.slice(2);
if (!file) {
  console.error('usage: npx tsx bench/markdown.ts <results.json> [<before-results.json>]');
  process.exit(2);
}
const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as BenchResults;
const r = read(file);
const before = beforeFile ? read(beforeFile) : undefined;

const num = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => x.toFixed(1);
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
/** The bare Fastify measured beside a scenario, which its ratio is read against ('–': the run's). */
const beside = (load: { beside?: { requestsPerSecond: number } }) =>
  load.beside ? num(load.beside.requestsPerSecond) : '–';

const out: string[] = [];
out.push(
  `Run of ${r.date.slice(0, 16).replace('T', ' ')} UTC on ${r.db === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'}: ` +
    `${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGb} GiB, Node ${r.machine.node}, ` +
    `load average ${r.machine.loadAverage.before.toFixed(2)} before and ${r.machine.loadAverage.after.toFixed(2)} after. ` +
    `Baseline (bare Fastify, ${r.options.connections} connections): ${num(r.baseline.requestsPerSecond)} req/s ` +
    `(${num(r.baseline.before.requestsPerSecond)} before, ${num(r.baseline.after?.requestsPerSecond ?? 0)} after); ` +
    'each ratio is to the bare Fastify measured right before and after its scenario ("bare beside"), ' +
    'or to this one where none was ("–").',
  '',
);
const head = [
  'scenario',
  ...(before ? ['before req/s'] : []),
  'req/s',
  'p50 ms',
  'p99 ms',
  'bare beside',
  'ratio',
  'errors',
];
if (Object.keys(r.http).length) out.push(row(head), row(head.map((_, i) => (i === 0 ? '---' : '---:'))));
for (const s of Object.values(r.http)) {
  const was = before?.http[s.name];
  out.push(
    row([
      s.title,
      ...(before ? [was ? num(was.requestsPerSecond) : '–'] : []),
      num(s.requestsPerSecond),
      ms(s.latencyMs.p50),
      ms(s.latencyMs.p99),
      beside(s),
      pct(s.ratio),
      s.errors + s.non2xx + s.timeouts,
    ]),
  );
}
out.push('');
if (r.campusDay) {
  const day = r.campusDay;
  out.push(
    `**Campus day** (${num(day.catalogueItems)} items, ${num(day.searches)} distinct searches, ${r.options.connections} reading connections):`,
    '',
  );
  if (day.runs.length) {
    out.push(
      row([
        'writes/s',
        'reads req/s',
        'bare beside',
        'ratio',
        'reads p50 ms',
        'reads p99 ms',
        'bad reads',
        'writes done',
        'writes p99 ms',
        'write errors',
      ]),
      row(['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    );
    for (const run of day.runs) {
      const w = run.writes;
      out.push(
        row([
          run.writesPerSecond,
          num(run.reads.requestsPerSecond),
          beside(run.reads),
          pct(run.reads.ratio),
          ms(run.reads.latencyMs.p50),
          ms(run.reads.latencyMs.p99),
          run.reads.non2xx + run.reads.errors + run.reads.timeouts,
          `${w.completed} (${(w.completed / Math.max(w.seconds, 0.001)).toFixed(1)}/s)`,
          w.completed ? ms(w.latencyMs.p99) : '–',
          w.errors,
        ]),
      );
    }
    out.push('');
  }
  const off = Object.entries(day.cachesOff);
  if (off.length) {
    out.push(
      row(['read class alone, caches off', 'req/s', 'p50 ms', 'p99 ms', 'bare beside', 'ratio', 'bad reads']),
      row(['---', '---:', '---:', '---:', '---:', '---:', '---:']),
    );
    for (const [cls, o] of off) {
      out.push(
        row([
          cls,
          num(o.requestsPerSecond),
          ms(o.latencyMs.p50),
          ms(o.latencyMs.p99),
          beside(o),
          pct(o.ratio),
          o.non2xx + o.errors + o.timeouts,
        ]),
      );
    }
    out.push('');
  }
}
if (r.flow) {
  const f = r.flow;
  out.push(
    `- **Reservation flow** (${f.workers} workers): ${f.flowsPerSecond} flows/s, ${f.approvedPerSecond} approvals/s; ` +
      `request p50/p99 ${ms(f.requestMs.p50)}/${ms(f.requestMs.p99)} ms, approve ${ms(f.approveMs.p50)}/${ms(f.approveMs.p99)} ms; ` +
      (f.check ? `${f.check.lost} lost, ${f.check.doubleBooked} double-booked.` : 'not checked.'),
  );
}
if (r.chat) {
  const c = r.chat;
  out.push(
    `- **Chat** (${c.sockets} sockets, ${c.sentPerSecond} messages/s): delivery p50/p99 ${ms(c.deliveryMs.p50)}/${ms(c.deliveryMs.p99)} ms, ` +
      `${c.delivered}/${c.sent} delivered; server RSS ${c.rssMb.before} MB before the sockets, ${c.rssMb.connected} MB connected, peak ${c.rssMb.peak} MB.`,
  );
}
if (r.upload) {
  out.push(
    `- **Upload** (${r.upload.photos} photos, ${r.upload.megabytesPerRound} MB): median ${r.upload.medianSeconds} s to processed URLs (max ${r.upload.maxSeconds} s).`,
  );
}
if (r.coldStart) {
  out.push(
    `- **Cold start** to the first answered request on the existing database: median ${num(r.coldStart.medianMs)} ms (${r.coldStart.ms.join(', ')}).`,
  );
}
if (r.web) {
  const w = r.web;
  out.push(
    `- **Web**: home JavaScript before interactive ${w.homeJsBeforeInteractiveGzipKb.toFixed(1)} KB gzip; ` +
      w.vitals
        .map(
          (v) =>
            `${v.page} LCP ${num(v.lcpMs)} ms (FCP ${num(v.fcpMs)} ms, TBT ${num(v.tbtMs)} ms, LCP element \`${v.lcpElement}\`)`,
        )
        .join('; ') +
      '.',
  );
}
out.push('', row(['budget', 'subject', 'limit', 'actual', '']), row(['---', '---', '---', '---', '---']));
for (const c of r.budgets)
  out.push(row([c.budget, c.subject, c.limit, c.actual, c.pass ? 'ok' : '**missed**']));
console.log(out.join('\n'));
