/*
 * The loop every durable outbox runs in every process (order mail, webhooks): a pass drains what is due (the
 * outbox's own `drain`, which claims rows atomically so processes never share one), a kick starts a pass at once
 * after something was queued here, and a timer that never keeps Node alive catches retries and what other
 * processes queued. One pass at a time per process; `flush` waits for the running one and runs another.
 */

export interface OutboxLoopOptions {
  /** Sends what is due now (claiming as it goes); answers how many went out. */
  drain: () => Promise<number>;
  /** Off only for tests that drive `flush()` themselves. */
  autoSend: boolean;
  pollMs: number;
  /** A pass that threw (the rows stay queued for the next one). */
  onError: (error: unknown) => void;
}

export class OutboxLoop {
  readonly #options: OutboxLoopOptions;
  #running: Promise<number> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(options: OutboxLoopOptions) {
    this.#options = options;
  }

  start(): void {
    if (!this.#options.autoSend || this.#timer) return;
    this.#timer = setInterval(() => this.kick(), this.#options.pollMs);
    this.#timer.unref();
  }

  /** Stops the timer and kicks; then runs one last pass for `graceMs` at most (the rest waits for the next start). */
  async stop(graceMs: number): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      this.flush().catch((error) => this.#options.onError(error)),
      new Promise((resolve) => {
        timeout = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timeout);
  }

  /** Starts a pass now unless one is running (it will see the new rows) or the loop is off. */
  kick(): void {
    if (!this.#options.autoSend || this.#stopped || this.#running) return;
    this.#pass().catch((error) => this.#options.onError(error));
  }

  /** Drains what is due now, after the pass already running in this process (if any) is done. */
  async flush(): Promise<number> {
    if (this.#running) await this.#running.catch(() => 0);
    return this.#pass();
  }

  #pass(): Promise<number> {
    const run = this.#options.drain().finally(() => {
      if (this.#running === run) this.#running = null;
    });
    this.#running = run;
    return run;
  }
}

/** The wait before the next attempt after `attempts` failed ones (the last delay repeats). */
export function retryDelay(delays: readonly number[], attempts: number): number {
  return delays[Math.min(Math.max(attempts, 1), delays.length) - 1] ?? delays[0] ?? 0;
}
