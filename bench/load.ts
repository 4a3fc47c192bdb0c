import autocannon, { type AutocannonRequest } from 'autocannon';

// HTTP load with autocannon: a fixed number of connections for a fixed time, each request built by
// the scenario (rotating ids, queries and session cookies). Latencies are kept per response, to the
// microsecond, because autocannon's own histogram rounds to whole milliseconds.

export interface LatencySummary {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  /** Answered requests (any status). */
  requests: number;
  requestsPerSecond: number;
  /** Milliseconds, over every answered request. */
  latencyMs: LatencySummary;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Per request label, when the scenario labels its requests (a mix of read classes). */
  byLabel?: Record<string, LabelResult>;
}

/** One label's share of a labelled run. */
export interface LabelResult {
  requests: number;
  requestsPerSecond: number;
  latencyMs: LatencySummary;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** The first few answers that were not 2xx: method, path, status and the start of the body. */
  failures: string[];
}

export interface RequestSpec {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Counts the request under this label as well (its latency, status and failures). */
  label?: string;
}

/** A growable list of numbers, cheap enough to fill at 70,000 a second. */
export class Samples {
  private values = new Float64Array(1 << 16);
  length = 0;

  push(value: number) {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = value;
  }

  summary(): LatencySummary {
    const sorted = this.values.slice(0, this.length).sort();
    const at = (q: number) =>
      sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : 0;
    let sum = 0;
    for (const v of sorted) sum += v;
    const round = (v: number) => Math.round(v * 1000) / 1000;
    return {
      p50: round(at(0.5)),
      p90: round(at(0.9)),
      p99: round(at(0.99)),
      max: round(sorted.length ? sorted[sorted.length - 1]! : 0),
      mean: round(sorted.length ? sum / sorted.length : 0),
    };
  }
}

/** What Chrome and Safari send over HTTPS: every answer above 1 KB is compressed for them. */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br';

export async function runLoad(options: {
  url: string;
  connections: number;
  seconds: number;
  /** Builds request number `n` (counted across all connections). */
  request: (n: number) => RequestSpec;
  /** Count requests per label too (costs the load generator a little per answer, so only when asked). */
  byLabel?: boolean;
}): Promise<LoadResult> {
  let n = 0;
  // Labelled requests: autocannon hands each connection's own context to setupRequest and, for the
  // answer, to onResponse right before its 'response' event (one request in flight per connection),
  // so the label of the request being answered is known when its latency arrives.
  const labels = new Map<
    string,
    { latencies: Samples; statusCodes: Record<string, number>; failures: string[] }
  >();
  let answered: { label?: string } | undefined;
  const setupRequest = (req: AutocannonRequest, context: Record<string, unknown>): AutocannonRequest => {
    const spec = options.request(n++);
    context.label = spec.label;
    context.request = `${spec.method ?? 'GET'} ${spec.path}`;
    return {
      ...req,
      method: spec.method ?? 'GET',
      path: spec.path,
      // As a phone's browser asks (over HTTPS): answers come compressed, as they do on a campus.
      headers: { accept: 'application/json', 'accept-encoding': BROWSER_ACCEPT_ENCODING, ...spec.headers },
      body: spec.body,
    };
  };
  const onResponse = (status: number, body: string, context: Record<string, unknown>) => {
    const label = context.label as string | undefined;
    answered = { label };
    if (label === undefined || (status >= 200 && status < 300)) return;
    const entry = labelEntry(label);
    if (entry.failures.length < 5)
      entry.failures.push(`${context.request} → ${status}: ${body.slice(0, 200)}`);
  };
  const labelEntry = (label: string) => {
    let entry = labels.get(label);
    if (!entry) {
      entry = { latencies: new Samples(), statusCodes: {}, failures: [] };
      labels.set(label, entry);
    }
    return entry;
  };
  const latencies = new Samples();
  const statusCodes: Record<string, number> = {};
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    requests: [options.byLabel ? { setupRequest, onResponse } : { setupRequest }],
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    const label = answered?.label;
    answered = undefined;
    if (label !== undefined) {
      const entry = labelEntry(label);
      entry.latencies.push(responseTime);
      entry.statusCodes[statusCode] = (entry.statusCodes[statusCode] ?? 0) + 1;
    }
  });
  const result = await instance;
  const seconds = result.duration || options.seconds;
  const byLabel: Record<string, LabelResult> = {};
  for (const [label, entry] of labels) {
    let non2xx = 0;
    for (const [code, count] of Object.entries(entry.statusCodes)) if (!code.startsWith('2')) non2xx += count;
    byLabel[label] = {
      requests: entry.latencies.length,
      requestsPerSecond: Math.round(entry.latencies.length / seconds),
      latencyMs: entry.latencies.summary(),
      non2xx,
      statusCodes: entry.statusCodes,
      failures: entry.failures,
    };
  }
  return {
    connections: options.connections,
    seconds,
    requests: latencies.length,
    requestsPerSecond: Math.round(latencies.length / seconds),
    latencyMs: latencies.summary(),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    ...(labels.size ? { byLabel } : {}),
  };
}
