import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
const [url, secs] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
await browser.startTracing(page, { path: '/tmp/lhx/trace.json', categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink', 'toplevel'] });
await page.goto(url);
await page.waitForTimeout(Number(secs ?? 8) * 1000);
await browser.stopTracing();
await browser.close();
const { traceEvents } = JSON.parse(readFileSync('/tmp/lhx/trace.json', 'utf8'));
const mains = traceEvents.filter((e: any) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
const busy = (m: any) => traceEvents.filter((e: any) => e.pid === m.pid && e.tid === m.tid && e.name === 'RunTask').reduce((a: number, e: any) => a + (e.dur ?? 0), 0);
const main = mains.sort((a: any, b: any) => busy(b) - busy(a))[0];
const evs = traceEvents.filter((e: any) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur);
// self time by event name: subtract children (events are nested by time)
evs.sort((a: any, b: any) => a.ts - b.ts || b.dur - a.dur);
const self = new Map<string, number>(); const stack: any[] = [];
for (const e of evs) {
  while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
  if (stack.length) { const p = stack.at(-1); self.set(p.name, (self.get(p.name) ?? 0) - e.dur); }
  self.set(e.name, (self.get(e.name) ?? 0) + e.dur); stack.push(e);
}
const top = evs.filter((e: any) => e.name === 'RunTask' && e.dur > 50000).map((e: any) => `${Math.round((e.ts - evs[0].ts) / 1000)}ms:${Math.round(e.dur / 1000)}`);
console.log('long RunTasks', top.join(' '));
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 22).map(([k, v]) => `${k} ${Math.round(v / 1000)}`).join('\n'));
