import type { BaselineBeside } from './baseline-beside.ts';
import type { RouteBundle } from './bundle.ts';
import type { CpuUse } from './cpu.ts';
import type { LoadResult } from './load.ts';
import type { BudgetCheck } from './report.ts';
import type { CampusDayRun } from './scenarios/campus-day.ts';
import type { ChatResult } from './scenarios/chat.ts';
import type { BudgetGroup } from './scenarios/http.ts';
import type { FlowResult } from './scenarios/reservations.ts';
import type { SavedSearchResults } from './scenarios/saved-searches.ts';
import type { UploadResult } from './scenarios/upload.ts';
import type { SeedResult } from './seed.ts';
import type { WebResult } from './web.ts';

// The shape of bench/results/<date>-<db>.json.

/** A load whose requests a second are also read as a share of bare Fastify. */
export interface RatedLoad extends LoadResult {
  /** Bare Fastify right before and after this load (absent with --beside-seconds 0). */
  beside?: BaselineBeside;
  /** requestsPerSecond ÷ the baseline beside it, or ÷ the run's baseline when none was measured. */
  ratio: number;
}

export interface HttpResult extends RatedLoad {
  name: string;
  title: string;
  budget?: BudgetGroup;
}

/** The campus day: the mixed runs at each write rate, and each read class alone, caches off. */
export interface CampusDayResults {
  /** Items in the catalogue (the campus's, times --catalogue-scale). */
  catalogueItems: number;
  /** Distinct searches the readers choose from, and how many of a sample found items. */
  searches: number;
  searchesSampled: number;
  searchesFinding: number;
  readMix: Record<string, number>;
  writeMix: Record<string, number>;
  runs: (CampusDayRun & { reads: RatedLoad })[];
  /** Read class → its run alone on a server with READ_CACHE_SECONDS=0, with where the CPU went. */
  cachesOff: Record<string, RatedLoad & { cpu?: CpuUse }>;
}

export interface BenchResults {
  date: string;
  db: 'pglite' | 'postgres';
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    os: string;
    /** 1-minute load average before and after the run: other work on the machine shows here. */
    loadAverage: { before: number; after: number };
  };
  options: Record<string, unknown> & { connections: number; seconds: number };
  seed: SeedResult;
  baseline: { before: LoadResult; after?: LoadResult; requestsPerSecond: number };
  http: Record<string, HttpResult>;
  flow?: FlowResult;
  chat?: ChatResult;
  upload?: UploadResult;
  /** Listing with 10,000 saved searches on the campus, matching on and off (decision 067). */
  savedSearches?: SavedSearchResults;
  coldStart?: { ms: number[]; medianMs: number };
  web?: WebResult;
  /** Each page's first-load JS and CSS from the build (bench/bundle.ts). */
  bundle?: RouteBundle[];
  campusDay?: CampusDayResults;
  budgets: BudgetCheck[];
}
