// Bare Fastify measured beside each scenario, not only at the two ends of the run. On a shared host the
// ceiling moves by a fifth to a third within a run (docs/performance.md): a scenario read against
// windows minutes away says as much about the host's moment as about the code. A second bare server
// idles on its own port for the whole run, and a short window of it is measured right before and right
// after each scenario's own window; the scenario's ratio is to the mean of those two.

/** The bare-Fastify windows either side of one scenario, in requests a second. */
export interface BaselineBeside {
  before: number;
  after: number;
  /** Their mean, rounded: what the scenario's ratio is read against. */
  requestsPerSecond: number;
}

/** Runs a scenario between two baseline windows. */
export type Beside = <T>(
  run: (measureJustBefore: () => Promise<void>) => Promise<T>,
) => Promise<{ result: T; beside: BaselineBeside }>;

/**
 * `measure` runs one window of bare Fastify and answers its requests a second. Consecutive scenarios
 * share the window between them. A scenario whose measured window comes after a preparation of its own
 * (the campus day's warm-up) calls `measureJustBefore` when it is ready: that window replaces the one
 * taken before the preparation.
 */
export function baselineBeside(measure: () => Promise<number>): Beside {
  // The last window, while no scenario has run since it.
  let latest: number | undefined;
  return async (run) => {
    let before = latest ?? (await measure());
    latest = undefined;
    const result = await run(async () => {
      before = await measure();
    });
    const after = await measure();
    latest = after;
    return { result, beside: { before, after, requestsPerSecond: Math.round((before + after) / 2) } };
  };
}

/**
 * A load's share of bare Fastify: against the windows beside it when it has them, else against the
 * run's own baseline (its first and last windows).
 */
export function shareOfBaseline(
  load: { requestsPerSecond: number; beside?: BaselineBeside },
  runBaselineRps: number,
): number {
  const baseline = load.beside?.requestsPerSecond || runBaselineRps;
  return baseline > 0 ? load.requestsPerSecond / baseline : 0;
}
