import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { campusToday } from '#shared/calendar.ts';
import { DEFAULT_CAMPUS_TIME_ZONE } from '#shared/constants.ts';
import { LocalStorage } from '../src/server/adapters/storage/local-storage.ts';
import {
  READ_CACHE_ANNOUNCED_SECONDS_DEFAULT,
  READ_CACHE_SECONDS_DEFAULT,
} from '../src/server/config-environment.ts';
import { type BaselineBeside, baselineBeside, shareOfBaseline } from './baseline-beside.ts';
import { formatBundles, runBundleBench } from './bundle.ts';
import { BENCH_DATABASE, createBenchDatabase } from './database.ts';
import { type Fixtures, prepareFixtures } from './fixtures.ts';
import { formatLighthouse, runLighthouseBench } from './lighthouse.ts';
import { type LoadResult, runLoad } from './load.ts';
import { checkBudgets, formatReport } from './report.ts';
import type { BenchResults, HttpResult } from './results.ts';
import {
  CAMPUS_DAY_METRICS_TOKEN,
  type CampusReader,
  campusReader,
  preflightCampusDay,
  READ_CLASSES,
  READ_MIX,
  type ReadClass,
  runCampusDay,
  runReadClass,
} from './scenarios/campus-day.ts';
import { WRITE_MIX } from './scenarios/campus-day-writes.ts';
import { runChat } from './scenarios/chat.ts';
import { HTTP_SCENARIOS, runHttpScenario } from './scenarios/http.ts';
import { runReservationFlow, verifyFlow } from './scenarios/reservations.ts';
import {
  drained,
  METRICS_TOKEN,
  matchingJobTimes,
  postListings,
  type SavedSearchResults,
  seedSavedSearches,
} from './scenarios/saved-searches.ts';
import { makePhoto, runUpload } from './scenarios/upload.ts';
import { FULL_CAMPUS, scaledCampus, seedCampus } from './seed.ts';
import { freePort, ROOT, type RunningServer, startApp, startBaseline } from './server.ts';
import { parseCampusWarmup } from './warm-up.ts';
import { measureWeb } from './web.ts';

// `npm run bench`: builds the app, seeds a fresh campus, starts the production server in its own
// process and measures it from this one, between two runs of a bare-Fastify baseline on the same host
// and port, and each scenario between two short windows of a second bare server (bench/baseline-beside.ts).
// Results: a table here and bench/results/<date>-<db>.json. See docs/performance.md.

const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    'catalogue-scale': { type: 'string', default: '1' },
    writes: { type: 'string', default: '0,5,25' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    'beside-seconds': { type: 'string', default: '5' },
    'campus-warmup': { type: 'string', default: 'steady' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
    'chat-sockets': { type: 'string', default: '1000' },
    'chat-rate': { type: 'string', default: '200' },
    'chat-seconds': { type: 'string', default: '20' },
    'flow-workers': { type: 'string', default: '16' },
    'upload-rounds': { type: 'string', default: '3' },
    'web-runs': { type: 'string', default: '3' },
    'cold-starts': { type: 'string', default: '3' },
    'lighthouse-runs': { type: 'string', default: '3' },
    profile: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    'no-save': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (args.help) {
  console.log(`npm run bench [-- options]
  DATABASE_URL=postgres://…   run on PostgreSQL (a database 'campusloop_bench_<pid>' is made and dropped there)
  --scale 1                   campus size (1 = 10,000 items, 2,000 users, 100,000 messages…; below 1 smaller)
  --catalogue-scale 1         items only, times this (10 = 100,000, 50 = 500,000 items); without --only
                              it runs the search scenarios alone: search,caches-off-search
  --seconds 10 --warmup 3     per HTTP scenario and per caches-off run
  --beside-seconds 5          bare Fastify measured this long right before and after each scenario, which
                              is read against their mean (0: against the run's first and last baselines)
  --campus-warmup steady      the mix before each campus-day run's window, at its write rate, until the
                              catalogue's hit ratio stops rising (15 s slices; at least the caches' 30 s,
                              at most the 600 s an announced answer is kept): a campus that has been
                              running (bench/warm-up.ts). A number of seconds instead: 30 gives the
                              first minute after a restart
  --connections 50            HTTP connections (the campus day's readers too)
  --writes 0,5,25             the campus day's write rates, one run each (writes a second, fixed)
  --only home,search,chat     scenarios or groups: http, flow, chat, upload, cold-start, web,
                              campus-day (= campus-day-mix and caches-off), campus-day-mix,
                              caches-off (= caches-off-home, -browse, -search, -item, -profile, -polls)
  --chat-sockets 1000 --chat-rate 200 --chat-seconds 20
  --flow-workers 16 --upload-rounds 3 --web-runs 3 --cold-starts 3
  --only saved-searches       10,000 saved searches on the campus; listings at the campus day's listing
                              rate with matching off, then on, and the matching job's time a listing;
                              only when named (bench/scenarios/saved-searches.ts)
  --only bundle              each page's first-load JS and CSS (gzip) from the build's manifest against
                              bench/bundle-budgets.json (also in every full run); exits 1 when over
  --only lighthouse           Lighthouse (mobile) over Home, Browse, an item and Impact on the demo
                              campus, embedded database; only when named (bench/lighthouse.ts)
  --lighthouse-runs 3         runs per page (the median is kept)
  --profile                   write the server's CPU profile to bench/results/profiles/
  --no-build                  use the existing dist (rebuilt anyway when older than the sources)
  --no-save                   print only, write no JSON`);
  process.exit(0);
}

const num = (name: keyof typeof args) => Number(args[name]);
const catalogueScale = num('catalogue-scale');
const campusWarmup = parseCampusWarmup(String(args['campus-warmup']), {
  cacheSeconds: READ_CACHE_SECONDS_DEFAULT,
  announcedSeconds: READ_CACHE_ANNOUNCED_SECONDS_DEFAULT,
});
if (!(catalogueScale >= 1)) throw new Error('--catalogue-scale must be 1 or more');
// A bigger catalogue is for finding where search stops being enough: by default only search runs.
const onlyList = args.only ?? (catalogueScale !== 1 ? 'search,caches-off-search' : undefined);
const only = onlyList ? new Set(onlyList.split(',').map((s) => s.trim())) : undefined;
const wants = (name: string, ...groups: string[]) =>
  !only || only.has(name) || groups.some((g) => only.has(g));
const wantsMix = wants('campus-day-mix', 'campus-day');
const cachesOffClasses = READ_CLASSES.filter((c) => wants(`caches-off-${c}`, 'caches-off', 'campus-day'));
const writeRates = args.writes
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isFinite(n) && n >= 0);
const dbKind: BenchResults['db'] = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

async function main() {
  const date = new Date().toISOString();
  const loadBefore = os.loadavg()[0]!;
  const seconds = num('seconds');
  const connections = num('connections');
  const today = campusToday(DEFAULT_CAMPUS_TIME_ZONE).date;

  if (!args['no-build']) {
    log('building the app (npm run build)');
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }

  // What each page makes a phone download first, against its budget: from the build alone, no server.
  let bundle: ReturnType<typeof runBundleBench> | undefined;
  if (wants('bundle')) {
    bundle = runBundleBench(path.join(ROOT, 'dist/web'));
    console.log(`\n${formatBundles(bundle)}\n`);
    if (bundle.checks.some((check) => !check.pass)) process.exitCode = 1;
    if (only?.has('bundle')) {
      only.delete('bundle');
      if (only.size === 0) {
        if (!args['no-save']) {
          const dir = path.join(ROOT, 'bench/results');
          mkdirSync(dir, { recursive: true });
          const file = path.join(dir, `${date.slice(0, 10)}-bundle.json`);
          writeFileSync(file, `${JSON.stringify({ date, ...bundle }, null, 2)}\n`);
          log(`wrote ${path.relative(ROOT, file)}`);
        }
        return;
      }
    }
  }

  // Lighthouse runs only when named, on its own server with the demo campus (bench/lighthouse.ts).
  if (only?.has('lighthouse')) {
    log(`lighthouse: Home, Browse, an item and Impact, ${num('lighthouse-runs')} runs each`);
    const result = await runLighthouseBench({ runs: num('lighthouse-runs'), save: !args['no-save'], log });
    console.log(`\n${formatLighthouse(result)}\n`);
    only.delete('lighthouse');
    if (only.size === 0) return;
  }

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-bench-'));
  const database = await createBenchDatabase({ dataDir, postgresUrl: process.env.DATABASE_URL });
  let app: RunningServer | undefined;
  // The bare server measured beside each scenario: started with the first window, idle in between.
  let besideServer: RunningServer | undefined;
  try {
    const scale = num('scale');
    const campus = scale >= 1 ? FULL_CAMPUS : scaledCampus(scale);
    const size = { ...campus, items: Math.round(campus.items * catalogueScale) };
    if (only) log(`only: ${[...only].join(', ')}`);
    log(`seeding ${dbKind}: ${JSON.stringify(size)}`);
    let fixtures: Fixtures;
    let seed: BenchResults['seed'];
    {
      const db = await database.open();
      await db.migrate();
      seed = await seedCampus(db.db, new LocalStorage(path.join(dataDir, 'uploads')), {
        size,
        today,
        vacuum: dbKind === 'postgres',
      });
      log(
        `seeded in ${seed.seconds.total.toFixed(1)} s (photos ${seed.seconds.photos.toFixed(1)} s, rows ${seed.seconds.rows.toFixed(1)} s, ` +
          `of which items ${(seed.seconds.items ?? 0).toFixed(1)} s and their search indexes ${(seed.seconds.searchIndexes ?? 0).toFixed(1)} s)`,
      );
      fixtures = await prepareFixtures(db.db, {
        samples: 500,
        chatSockets: num('chat-sockets'),
        flowItems: 12,
      });
      await db.close();
    }
    const photos = wants('upload')
      ? await Promise.all(Array.from({ length: 5 }, (_, i) => makePhoto(4_000_000, i + 1)))
      : [];

    const port = await freePort();
    const baseline = async (): Promise<LoadResult> => {
      const server = await startBaseline(port);
      try {
        await runLoad({
          url: server.url,
          connections,
          seconds: num('warmup'),
          request: () => ({ path: '/' }),
        });
        return await runLoad({ url: server.url, connections, seconds, request: () => ({ path: '/' }) });
      } finally {
        await server.stop();
      }
    };
    log('baseline (bare Fastify) before');
    const before = await baseline();
    log(`baseline: ${before.requestsPerSecond} req/s, p99 ${before.latencyMs.p99} ms`);

    const besideSeconds = num('beside-seconds');
    const beside =
      besideSeconds > 0
        ? baselineBeside(async () => {
            besideServer ??= await startBaseline(await freePort());
            const request = () => ({ path: '/' });
            await runLoad({ url: besideServer.url, connections, seconds: 1, request });
            const window = await runLoad({
              url: besideServer.url,
              connections,
              seconds: besideSeconds,
              request,
            });
            log(`beside: bare Fastify ${window.requestsPerSecond} req/s`);
            return window.requestsPerSecond;
          })
        : undefined;
    /** A scenario between its two baseline windows (none with --beside-seconds 0). */
    const rated = async <T>(
      run: (measureJustBefore: () => Promise<void>) => Promise<T>,
    ): Promise<{ result: T; beside?: BaselineBeside }> =>
      beside ? beside(run) : { result: await run(async () => {}) };

    const profileDir = args.profile
      ? path.join(ROOT, 'bench/results/profiles', `${date.slice(0, 10)}-${dbKind}`)
      : undefined;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const start = () =>
      startApp({
        port,
        dataDir,
        databaseUrl: database.serverUrl,
        cpuProfileDir: profileDir,
        // The campus day reads its caches' hit ratios from /metrics.
        env: { METRICS_TOKEN: CAMPUS_DAY_METRICS_TOKEN },
      });
    app = await start();
    const coldStarts = [app.startMs];
    log(`server answered ${app.startMs} ms after spawn (pid ${app.pid}, ${app.rssMb()} MB)`);

    const http: Record<string, HttpResult> = {};
    for (const scenario of HTTP_SCENARIOS) {
      if (!wants(scenario.name, 'http')) continue;
      const url = app.url;
      const { result, beside: around } = await rated(() =>
        runHttpScenario(scenario, { url, fixtures, connections, seconds, warmupSeconds: num('warmup') }),
      );
      http[scenario.name] = {
        name: scenario.name,
        title: scenario.title,
        budget: scenario.budget,
        ...result,
        ...(around ? { beside: around } : {}),
        ratio: 0,
      };
      log(
        `${scenario.name}: ${result.requestsPerSecond} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms` +
          (result.non2xx || result.errors ? `, ${result.non2xx} non-2xx, ${result.errors} errors` : ''),
      );
    }

    let campusDay: BenchResults['campusDay'];
    let reader: CampusReader | undefined;
    if (wantsMix || cachesOffClasses.length) {
      reader = campusReader(fixtures);
      campusDay = {
        catalogueItems: size.items,
        searches: reader.searches.length,
        searchesSampled: 0,
        searchesFinding: 0,
        readMix: READ_MIX,
        writeMix: wantsMix ? WRITE_MIX : {},
        runs: [],
        cachesOff: {},
      };
    }
    if (wantsMix && reader && campusDay) {
      const checked = await preflightCampusDay(app.url, reader);
      Object.assign(campusDay, checked);
      log(
        `campus day: ${reader.searches.length} searches, ${checked.searchesFinding} of ${checked.searchesSampled} sampled find items`,
      );
      for (const writesPerSecond of writeRates) {
        const url = app.url;
        const serverPid = app.pid;
        const { result: run, beside: around } = await rated((measureJustBefore) =>
          runCampusDay({
            url,
            fixtures,
            reader,
            connections,
            seconds,
            warmup: campusWarmup,
            onWarmupSlice: (elapsed, ratio) =>
              log(
                `campus day at ${writesPerSecond} writes/s: warm-up ${elapsed} s, catalogue hits in the last slice ${ratio === null ? '–' : `${(ratio * 100).toFixed(1)} %`}`,
              ),
            writesPerSecond,
            today,
            firstNewListing: size.items + 1,
            metricsToken: CAMPUS_DAY_METRICS_TOKEN,
            cpu: { serverPid, database: database.kind === 'postgres' ? BENCH_DATABASE : undefined },
            beforeWindow: measureJustBefore,
          }),
        );
        campusDay.runs.push({
          ...run,
          reads: { ...run.reads, ...(around ? { beside: around } : {}), ratio: 0 },
        });
        const r = run.reads;
        const w = run.writes;
        log(
          `campus day at ${writesPerSecond} writes/s: reads ${r.requestsPerSecond} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, ${r.non2xx + r.errors + r.timeouts} bad; ` +
            `writes ${w.completed} done, p99 ${w.latencyMs.p99} ms, ${w.errors} errors`,
        );
      }
    }

    let flowLedger: Awaited<ReturnType<typeof runReservationFlow>>['ledger'] | undefined;
    let flow: BenchResults['flow'];
    if (wants('flow')) {
      log('reservation flow');
      const run = await runReservationFlow({
        url: app.url,
        fixtures,
        workers: num('flow-workers'),
        seconds,
        today,
      });
      flow = run.result;
      flowLedger = run.ledger;
      log(`flow: ${flow.flowsPerSecond} flows/s, ${flow.approved} approved, ${flow.errors} errors`);
    }

    let chat: BenchResults['chat'];
    if (wants('chat')) {
      log(`chat: ${num('chat-sockets')} sockets`);
      chat = await runChat({
        url: app.url,
        fixtures,
        sockets: num('chat-sockets'),
        messagesPerSecond: num('chat-rate'),
        seconds: num('chat-seconds'),
        rssMb: app.rssMb,
      });
      log(`chat: delivery p99 ${chat.deliveryMs.p99} ms, ${chat.lost} lost, RSS peak ${chat.rssMb.peak} MB`);
    }

    let upload: BenchResults['upload'];
    if (wants('upload')) {
      log('upload');
      upload = await runUpload({
        url: app.url,
        uploader: fixtures.people[1]!,
        photos,
        rounds: num('upload-rounds'),
      });
      log(`upload: median ${upload.medianSeconds} s`);
    }

    let web: BenchResults['web'];
    if (wants('web')) {
      log('web: bundles and vitals in Chromium');
      web = await measureWeb({ url: app.url, fixtures, runs: num('web-runs') });
      log(
        `web: home JS ${web.homeJsBeforeInteractiveGzipKb} KB, ${web.vitals.map((v) => `${v.page} LCP ${v.lcpMs} ms`).join(', ')}`,
      );
    }

    await app.stop();
    app = undefined;

    if (cachesOffClasses.length && reader && campusDay) {
      log('caches off: the same server with READ_CACHE_SECONDS=0');
      app = await startApp({
        port,
        dataDir,
        databaseUrl: database.serverUrl,
        cachesOff: true,
        cpuProfileDir: profileDir,
      });
      const checked = await preflightCampusDay(app.url, reader, cachesOffClasses);
      if (checked.searchesSampled && !campusDay.searchesSampled) Object.assign(campusDay, checked);
      for (const cls of cachesOffClasses) {
        const url = app.url;
        const serverPid = app.pid;
        const { result, beside: around } = await rated(() =>
          runReadClass(cls as ReadClass, {
            url,
            reader,
            connections,
            seconds,
            warmupSeconds: num('warmup'),
            cpu: { serverPid, database: database.kind === 'postgres' ? BENCH_DATABASE : undefined },
          }),
        );
        campusDay.cachesOff[cls] = { ...result, ...(around ? { beside: around } : {}), ratio: 0 };
        log(
          `caches off, ${cls}: ${result.requestsPerSecond} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms` +
            (result.non2xx || result.errors ? `, ${result.non2xx} non-2xx, ${result.errors} errors` : ''),
        );
      }
      await app.stop();
      app = undefined;
    }

    let savedSearches: SavedSearchResults | undefined;
    if (only?.has('saved-searches')) {
      // The campus day's listings: their share of its busiest write rate.
      const listingsPerSecond = (Math.max(...writeRates) * WRITE_MIX.listing) / 100;
      const db = await database.open();
      const seeded = await seedSavedSearches(db.db, fixtures);
      await db.close();
      log(`saved searches: ${seeded.savedSearches} on ${seeded.campus}, listing at ${listingsPerSecond}/s`);
      savedSearches = { ...seeded, listingsPerSecond, runs: [] };
      let firstListing = size.items + 1_000_001;
      for (const matching of [false, true]) {
        app = await startApp({
          port,
          dataDir,
          databaseUrl: database.serverUrl,
          env: {
            SAVED_SEARCH_MATCHING: String(matching),
            // The matching job's worker; the timed jobs wait an interval longer than the run.
            JOBS_ENABLED: String(matching),
            JOBS_INTERVAL_SECONDS: '3600',
            METRICS_TOKEN,
          },
        });
        const run = await postListings({
          url: app.url,
          fixtures,
          today,
          perSecond: listingsPerSecond,
          seconds: seconds * 3,
          firstListing,
          matching,
        });
        firstListing += run.listings;
        if (matching) await drained(app.url, 120_000);
        await app.stop();
        app = undefined;
        savedSearches.runs.push(run);
        log(
          `listing with matching ${matching ? 'on' : 'off'}: ${run.listings} listings, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, ${run.errors} errors`,
        );
      }
      const jobDb = await database.open();
      Object.assign(savedSearches, await matchingJobTimes(jobDb.db));
      await jobDb.close();
      log(
        `matching job: ${savedSearches.jobs} jobs, p50 ${savedSearches.jobMs?.p50} ms, p99 ${savedSearches.jobMs?.p99} ms a listing, ${savedSearches.told} told`,
      );
    }

    if (wants('cold-start')) {
      for (let i = 1; i < num('cold-starts'); i++) {
        const again = await start();
        coldStarts.push(again.startMs);
        await again.stop();
      }
      log(`cold starts: ${coldStarts.join(', ')} ms`);
    }

    if (flow && flowLedger) {
      const db = await database.open();
      flow.check = await verifyFlow(db.db, flowLedger);
      await db.close();
      log(`flow check: ${JSON.stringify(flow.check)}`);
    }

    log('baseline (bare Fastify) after');
    const after = await baseline();
    const baselineRps = Math.round((before.requestsPerSecond + after.requestsPerSecond) / 2);
    for (const result of Object.values(http)) result.ratio = shareOfBaseline(result, baselineRps);
    for (const run of campusDay?.runs ?? []) run.reads.ratio = shareOfBaseline(run.reads, baselineRps);
    for (const result of Object.values(campusDay?.cachesOff ?? {})) {
      result.ratio = shareOfBaseline(result, baselineRps);
    }

    const cpus = os.cpus();
    const results: BenchResults = {
      date,
      db: dbKind,
      machine: {
        cpus: cpus.length,
        cpuModel: cpus[0]?.model ?? 'unknown',
        memoryGb: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
        os: `${os.type()} ${os.release()}`,
        loadAverage: { before: loadBefore, after: os.loadavg()[0]! },
      },
      options: { ...args, only: onlyList, connections, seconds },
      seed,
      baseline: { before, after, requestsPerSecond: baselineRps },
      http,
      flow,
      chat,
      upload,
      savedSearches,
      coldStart: wants('cold-start')
        ? {
            ms: coldStarts,
            medianMs: [...coldStarts].sort((a, b) => a - b)[Math.floor(coldStarts.length / 2)]!,
          }
        : undefined,
      web,
      bundle: bundle?.routes,
      campusDay,
      budgets: [],
    };
    results.budgets = [...checkBudgets(results), ...(bundle?.checks ?? [])];
    console.log(`\n${formatReport(results)}\n`);
    if (!args['no-save']) {
      const dir = path.join(ROOT, 'bench/results');
      mkdirSync(dir, { recursive: true });
      // A partial or scaled run gets its own file, so it never overwrites the day's full run.
      const parts = [
        catalogueScale !== 1 ? `catalogue-x${catalogueScale}` : '',
        args.only ? [...only!].join('+') : '',
      ].filter(Boolean);
      const file = path.join(dir, `${[date.slice(0, 10), dbKind, ...parts].join('-')}.json`);
      writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
      log(`wrote ${path.relative(ROOT, file)}`);
    }
  } finally {
    await app?.stop();
    await besideServer?.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
