/**
 * How long a build beside the answering index (the search index, the facet index) runs before it lets waiting
 * requests have the event loop: its pauses go on at once until the build has run its budget since it last yielded.
 *
 * The budget follows the traffic. After each yield the pacer sees how long the event loop was away (what the
 * waiting requests took, builds' own runs left out), counting only time the process was running (its CPU time: a
 * stretch the machine gave to other processes is no request of ours); the next budget is `share` times the usual
 * such stretch (the median of the last few, so one long stall — a collector pause — does not count), between
 * `minRunMs` and `maxRunMs`:
 * - light traffic (a request now and then, each quick): the yields come back at once and the build yields every
 *   `minRunMs`, so a request that arrives mid-run waits at most that long;
 * - heavy traffic (requests always queued): the build runs about `share` times as long as the requests between its
 *   runs took, so it keeps that share of the event loop and a large catalog is swapped in within seconds instead of
 *   getting the crumbs between requests (each request then waits at most `maxRunMs` more, next to a queue that is
 *   already that long).
 */
export interface BuildPacerOptions {
  /** The clock, ms (performance.now by default; tests pass their own). */
  now?: () => number;
  /** The CPU time the process has used, ms (process.cpuUsage by default; tests pass their own). */
  cpuNow?: () => number;
  /** Lets the waiting work run, resolving afterwards (setImmediate by default). */
  yieldNow?: () => Promise<void>;
  minRunMs?: number;
  maxRunMs?: number;
  share?: number;
}

/** A build's run between two yields with nothing waiting: a request arriving mid-run waits at most this long. */
export const MIN_RUN_MS = 4;
/** The longest run, however busy: what a request may wait on a build next to a queue already that long. */
export const MAX_RUN_MS = 40;
/**
 * Under traffic, how long the build runs for each millisecond the requests between its runs took: half the loop
 * each. Measured with the live-import bench (SQLite, 10 busy connections): at 2 the shoppers from a new import's exit
 * until it showed had a p99 of 8–10× the idle p99 (p50 31–37 ms) and the products showed after 1.8–2.2 s; at 1,
 * 4.0–7.0× (p50 19–23 ms) and 2.1–2.4 s. The shoppers' bound is the one kept; PostgreSQL ×2 moved with neither.
 */
export const BUILD_SHARE = 1;
/** How many recent stretches away the budget follows (their median). */
const RECENT = 5;
/** A build that yielded this recently is running: requests get their turn's share (requestSliceMs). */
const RUNNING_WITHIN_MS = 250;

export class BuildPacer {
  readonly #now: () => number;
  readonly #cpuNow: () => number;
  readonly #yieldNow: () => Promise<void>;
  readonly #minRunMs: number;
  readonly #maxRunMs: number;
  readonly #share: number;
  /** When the current run began (the last resume); every build sharing the pacer counts from it. */
  #runStartMs = Number.NEGATIVE_INFINITY;
  /** Time spent in builds' runs so far: subtracted from a yield's stretch (another build's run is not a request). */
  #buildMs = 0;
  #recent: number[] = [];
  #budget: number;
  #lastYieldMs = Number.NEGATIVE_INFINITY;

  constructor(options: BuildPacerOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#cpuNow = options.cpuNow ?? processCpuMs;
    this.#yieldNow = options.yieldNow ?? (() => new Promise((resolve) => setImmediate(resolve)));
    this.#minRunMs = options.minRunMs ?? MIN_RUN_MS;
    this.#maxRunMs = options.maxRunMs ?? MAX_RUN_MS;
    this.#share = options.share ?? BUILD_SHARE;
    this.#budget = this.#minRunMs;
  }

  /** The current run budget, ms: tests and benches. */
  get budgetMs(): number {
    return this.#budget;
  }

  /**
   * While a build runs, how long the requests of one turn of the event loop should run (ms; 0 when no build
   * yielded lately): the build's run ÷ its share. The server's turns (http/loopTurns.ts) start a slice of waiting
   * requests per turn; at their usual 1 ms slice, next to a build's run of 4 ms or more, the requests got a fifth of
   * the loop instead of their share, and their queue, not the build, made the wait (measured: 8–15× the idle p99
   * after an import, 5–6× with the slice following the build).
   */
  requestSliceMs = (): number =>
    this.#now() - this.#lastYieldMs < RUNNING_WITHIN_MS ? this.#budget / this.#share : 0;

  /**
   * Awaited by a build between two steps: resolves at once while the run is within its budget, else after a yield
   * to the event loop.
   */
  pause = (): Promise<void> => {
    const now = this.#now();
    if (now - this.#runStartMs < this.#budget) return Promise.resolve();
    return this.#yield(now);
  };

  /**
   * Yields whatever the budget says (a build between its phases: read, fill, swap), with the same accounting: the
   * run after it counts from its resume.
   */
  yield = (): Promise<void> => this.#yield(this.#now());

  #yield(now: number): Promise<void> {
    this.#lastYieldMs = now;
    // A build that starts (or resumes after awaiting something else) counts from here.
    if (this.#runStartMs !== Number.NEGATIVE_INFINITY) this.#buildMs += now - this.#runStartMs;
    const yieldedAt = now;
    const cpuAtYield = this.#cpuNow();
    const buildMsAtYield = this.#buildMs;
    return this.#yieldNow().then(() => {
      const resumed = this.#now();
      // Time the process ran (not the machine's other work), less other builds' runs: the requests' time.
      const ran = Math.min(resumed - yieldedAt, this.#cpuNow() - cpuAtYield);
      const away = Math.max(0, ran - (this.#buildMs - buildMsAtYield));
      this.#recent.push(away);
      if (this.#recent.length > RECENT) this.#recent.shift();
      const usual = [...this.#recent].sort((a, b) => a - b)[this.#recent.length >> 1] as number;
      this.#budget = Math.min(this.#maxRunMs, Math.max(this.#minRunMs, this.#share * usual));
      this.#runStartMs = resumed;
    });
  }
}

/** The process's CPU time (user and system, every thread), ms. */
function processCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** One pacer per process: every build beside an answering index shares the one event loop. */
export const processPacer = new BuildPacer();
