// A promise that rejects with no one to hear it ends Node by default. In a server that is the wrong
// trade: one forgotten `await` deep in a library (pg-boss 10 records a job's outcome without awaiting
// it, jobs/queue.ts) would take every open request and live socket down with it, on a database
// connection cut. Such a rejection is logged and counted (GET /metrics), and the process keeps serving;
// /api/ready still tells a load balancer whether the database and the job queue answer.

export interface RejectionListener {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

/** Logs and counts every unhandled rejection instead of exiting. */
export function keepServingThroughUnhandledRejections(
  target: RejectionListener,
  report: { log: (reason: unknown) => void; count?: () => void },
): void {
  target.on('unhandledRejection', (reason) => {
    report.count?.();
    report.log(reason);
  });
}
