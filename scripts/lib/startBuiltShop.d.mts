import type { ChildProcess } from 'node:child_process';

export interface RunningShop {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the server printed so far (startup lines included). */
  output(): string;
  /** Stops the server gracefully and deletes its data dir (unless `keepDataDir`). */
  stop(): Promise<void>;
  /** Kills the server without warning (SIGKILL), as a crash would, and keeps the data dir for a restart. */
  kill(): Promise<void>;
}

export function startBuiltShop(options?: {
  /** Written to a settings file passed as SHOP_CONFIG. */
  settings?: object;
  /** Restart on this data dir instead of a fresh one. */
  dataDir?: string;
  /** Added to the server's environment (DATABASE_URL for PostgreSQL). */
  env?: Record<string, string>;
  /** Leave the data dir in place on stop (several processes sharing it; the caller deletes it). */
  keepDataDir?: boolean;
}): Promise<RunningShop>;
