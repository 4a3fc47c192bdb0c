import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/browser.ts';
import { freePort, startApp } from './server.ts';

// What a page's first scripts do on a phone's main thread: the built server with the demo campus, each
// page loaded in a fresh Chromium with the CPU slowed 4x (Lighthouse's mobile setting), recording a CPU
// profile (DevTools' Profiler) and the long tasks the page itself observes. Prints per page the script
// sent (gzip), the long tasks, their blocking time past 50 ms (what Lighthouse's TBT adds up), any
// error the page logged (a hydration mismatch makes React render the whole page again) and the
// functions and files that took the most time. A tool for finding why a page got slow, not a score:
//
//   node --import ./scripts/lingui-register.mjs --import tsx bench/main-thread.ts [--runs 3] [--profile-dir dir]
//
// Decision 063 and docs/performance.md give what it found. Build first (`npm run build`).

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    slowdown: { type: 'string', default: '4' },
    pages: { type: 'string', default: 'home,browse,item,impact' },
    'profile-dir': { type: 'string' },
  },
});

interface Sample {
  scriptGzipKb: number;
  scripts: number;
  longTasks: number[];
  blockingMs: number;
  errors: string[];
  selfByFile: Map<string, number>;
  selfByFunction: Map<string, number>;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function measure(url: string, slowdown: number, profileFile?: string): Promise<Sample> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Network.enable');
    let scriptBytes = 0;
    let scripts = 0;
    const scriptRequests = new Set<string>();
    cdp.on('Network.responseReceived', (event) => {
      if (event.type === 'Script') scriptRequests.add(event.requestId);
    });
    cdp.on('Network.loadingFinished', (event) => {
      if (!scriptRequests.has(event.requestId)) return;
      scripts++;
      scriptBytes += event.encodedDataLength;
    });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text().slice(0, 200));
    });
    page.on('pageerror', (error) => errors.push(error.message.slice(0, 200)));
    // The page's own record of its long tasks, from before its first script runs.
    // (Scripts as text: tsx's transform would name the functions with a helper the page does not have.)
    await page.addInitScript(`
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
      }).observe({ type: 'longtask', buffered: true });
    `);
    await cdp.send('Profiler.start');
    await page.goto(url, { waitUntil: 'load' });
    // Until the main thread has been quiet for a second (hydration and what it starts are done).
    await page.evaluate(`new Promise((resolve) => {
      let quietSince = performance.now();
      let last = 0;
      const check = () => {
        if (window.__longTasks.length !== last) {
          last = window.__longTasks.length;
          quietSince = performance.now();
        }
        if (performance.now() - quietSince > 1000) resolve();
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    })`);
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
      profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
    };
    if (profileFile) writeFileSync(profileFile, JSON.stringify(profile));
    const longTasks = (await page.evaluate('window.__longTasks')) as number[];
    const selfByFile = new Map<string, number>();
    const selfByFunction = new Map<string, number>();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const node = byId.get(id);
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      if (!node) return;
      const frame = node.callFrame;
      const file = frame.url
        ? frame.url.replace(/^https?:\/\/[^/]+/, '')
        : `(${frame.functionName || 'program'})`;
      if (file === '(idle)') return;
      selfByFile.set(file, (selfByFile.get(file) ?? 0) + ms);
      const fn = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
      selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + ms);
    });
    return {
      scriptGzipKb: Math.round(scriptBytes / 102.4) / 10,
      scripts,
      longTasks: longTasks.map(Math.round),
      blockingMs: Math.round(longTasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0)),
      errors,
      selfByFile,
      selfByFunction,
    };
  } finally {
    await browser.close();
  }
}

const top = (map: Map<string, number>, n: number) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, ms]) => `      ${String(Math.round(ms)).padStart(6)} ms  ${name}`)
    .join('\n');

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-main-thread-'));
  const app = await startApp({ port: await freePort(), dataDir, seedDemo: true });
  try {
    const list = (await (await fetch(`${app.url}/api/items?campus=all&limit=12`)).json()) as {
      items: { id: string; images: string[] }[];
    };
    const item = list.items.find((i) => i.images.length > 0) ?? list.items[0];
    const paths: Record<string, string> = {
      home: '/',
      browse: '/browse',
      item: `/item/${item?.id}`,
      impact: '/impact',
    };
    for (const name of args.pages.split(',')) {
      const pagePath = paths[name];
      if (!pagePath) throw new Error(`unknown page ${name}`);
      const samples: Sample[] = [];
      for (let run = 0; run < Number(args.runs); run++) {
        const profileFile = args['profile-dir']
          ? path.join(args['profile-dir'], `${name}-${run + 1}.cpuprofile`)
          : undefined;
        samples.push(await measure(`${app.url}${pagePath}`, Number(args.slowdown), profileFile));
      }
      const mid = samples.find((s) => s.blockingMs === median(samples.map((x) => x.blockingMs)))!;
      console.log(
        `${name} ${pagePath}: scripts ${mid.scripts} files, ${mid.scriptGzipKb} KB sent; ` +
          `blocking ${samples.map((s) => s.blockingMs).join(' / ')} ms (median ${mid.blockingMs}); ` +
          `long tasks ${mid.longTasks.join(', ')} ms`,
      );
      if (mid.errors.length) console.log(`    errors: ${mid.errors.join(' | ')}`);
      console.log(`    self time by file:\n${top(mid.selfByFile, 8)}`);
      console.log(`    self time by function:\n${top(mid.selfByFunction, 12)}`);
    }
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
