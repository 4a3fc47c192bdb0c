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
}

export interface RequestSpec {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
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

export async function runLoad(options: {
  url: string;
  connections: number;
  seconds: number;
  /** Builds request number `n` (counted across all connections). */
  request: (n: number) => RequestSpec;
}): Promise<LoadResult> {
  let n = 0;
  const setupRequest = (req: AutocannonRequest): AutocannonRequest => {
    const spec = options.request(n++);
    return {
      ...req,
      method: spec.method ?? 'GET',
      path: spec.path,
      headers: { accept: 'application/json', ...spec.headers },
      body: spec.body,
    };
  };
  const latencies = new Samples();
  const statusCodes: Record<string, number> = {};
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    requests: [{ setupRequest }],
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
  });
  const result = await instance;
  const seconds = result.duration || options.seconds;
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
  };
}
