import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

// Where the machine's CPU went while a scenario ran: the server under test, the PostgreSQL backends of
// the bench's own database, the load generator (this process), and everything else on the host. Read
// from /proc, so it says something true on a busy shared machine too: CPU milliseconds a request are
// work done, not time waited, and "other processes" shows how much of the machine was not ours.
// Linux only; elsewhere every figure is 0 and the report leaves the columns out.

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second on every mainstream kernel. */
const TICKS_PER_SECOND = 100;
const msOfTicks = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;

export interface CpuUse {
  /** Wall-clock seconds between the two readings. */
  seconds: number;
  cores: number;
  /** CPU milliseconds over the window. */
  serverMs: number;
  postgresMs: number;
  loadGeneratorMs: number;
  /** Busy CPU time of every other process on the host (other work, the kernel's own). */
  otherMs: number;
  /** Requests answered in the window, for the per-request figures. */
  requests: number;
  /**
   * The server's main thread (where its JavaScript runs), from the kernel's scheduler statistics: ms
   * it ran, and ms it was ready to run but waited for a core held by another process. Absent where
   * /proc/<pid>/task/<pid>/schedstat is not kept.
   */
  serverThread?: { runMs: number; waitMs: number };
}

interface Reading {
  at: number;
  machineBusyMs: number;
  serverMs: number;
  postgresMs: Map<number, number>;
  loadGeneratorMs: number;
  serverThread?: { runMs: number; waitMs: number };
}

/** The first two fields of a thread's schedstat: nanoseconds on a core, and waiting in a run queue. */
function threadSchedule(pid: number): { runMs: number; waitMs: number } | undefined {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(/\s+/);
    if (run === undefined || wait === undefined) return undefined;
    return { runMs: Number(run) / 1e6, waitMs: Number(wait) / 1e6 };
  } catch {
    return undefined;
  }
}

/** utime + stime of one process, in ms; 0 when it is gone or /proc is not there. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces, hence the last ')'): utime and stime
    // are the 14th and 15th of the line, the 12th and 13th after the name.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return msOfTicks(Number(fields[11]) + Number(fields[12]));
  } catch {
    return 0;
  }
}

/** The machine's busy CPU time since boot (all cores; idle and I/O wait left out). */
function machineBusyMs(): number {
  try {
    const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
    const ticks = cpu!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return msOfTicks(ticks.reduce((a, b) => a + b, 0) - idle);
  } catch {
    return 0;
  }
}

/** The backends serving one database: PostgreSQL titles them "postgres: <user> <database> <client> …". */
function postgresBackends(database: string): Map<number, number> {
  const backends = new Map<number, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return backends;
  }
  for (const pid of pids) {
    try {
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.split(' ').includes(database)) {
        backends.set(Number(pid), processCpuMs(Number(pid)));
      }
    } catch {
      // The process ended while the list was read.
    }
  }
  return backends;
}

function read(serverPid: number, database: string | undefined): Reading {
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    machineBusyMs: machineBusyMs(),
    serverMs: processCpuMs(serverPid),
    postgresMs: database ? postgresBackends(database) : new Map(),
    loadGeneratorMs: (own.user + own.system) / 1000,
    serverThread: threadSchedule(serverPid),
  };
}

/**
 * Starts measuring; the function it returns ends the window. `database` names the PostgreSQL database
 * whose backends count as PostgreSQL (none for the embedded database, which runs inside the server).
 */
export function startCpuWindow(serverPid: number, database?: string): (requests: number) => CpuUse {
  const start = read(serverPid, database);
  return (requests) => {
    const end = read(serverPid, database);
    let postgresMs = 0;
    // A backend opened during the window counts whole; one that closed is lost (pools keep theirs).
    for (const [pid, ms] of end.postgresMs) postgresMs += ms - (start.postgresMs.get(pid) ?? 0);
    const serverMs = end.serverMs - start.serverMs;
    const loadGeneratorMs = end.loadGeneratorMs - start.loadGeneratorMs;
    const busy = end.machineBusyMs - start.machineBusyMs;
    const thread =
      start.serverThread && end.serverThread
        ? {
            runMs: Math.round(end.serverThread.runMs - start.serverThread.runMs),
            waitMs: Math.round(end.serverThread.waitMs - start.serverThread.waitMs),
          }
        : undefined;
    return {
      seconds: (end.at - start.at) / 1000,
      cores: os.availableParallelism(),
      serverMs: Math.round(serverMs),
      postgresMs: Math.round(postgresMs),
      loadGeneratorMs: Math.round(loadGeneratorMs),
      otherMs: Math.max(0, Math.round(busy - serverMs - postgresMs - loadGeneratorMs)),
      requests,
      ...(thread ? { serverThread: thread } : {}),
    };
  };
}

/** CPU ms a request, and each part's share of the machine (cores × seconds), for the report. */
export function cpuSummary(use: CpuUse) {
  const capacity = use.seconds * 1000 * use.cores;
  const share = (ms: number) => (capacity > 0 ? ms / capacity : 0);
  const perRequest = (ms: number) => (use.requests > 0 ? ms / use.requests : 0);
  return {
    serverMsPerRequest: perRequest(use.serverMs),
    postgresMsPerRequest: perRequest(use.postgresMs),
    serverShare: share(use.serverMs),
    postgresShare: share(use.postgresMs),
    loadGeneratorShare: share(use.loadGeneratorMs),
    otherShare: share(use.otherMs),
    /**
     * Shares of the window's wall time (not of the cores): the server's main thread running, and ready
     * but waiting for a core. Their sum near 100 % says the thread was never idle, so the server's own
     * work, or the other processes holding the cores, set the pace; not the database's answers.
     */
    serverThreadRunShare:
      use.serverThread && use.seconds > 0 ? use.serverThread.runMs / (use.seconds * 1000) : undefined,
    serverThreadWaitShare:
      use.serverThread && use.seconds > 0 ? use.serverThread.waitMs / (use.seconds * 1000) : undefined,
  };
}
