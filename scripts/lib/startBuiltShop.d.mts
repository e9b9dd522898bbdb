import type { ChildProcess } from 'node:child_process';

export interface RunningShop {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Stops the server gracefully and deletes its data dir. */
  stop(): Promise<void>;
  /** Kills the server without warning (SIGKILL), as a crash would, and keeps the data dir for a restart. */
  kill(): Promise<void>;
}

export function startBuiltShop(options?: {
  /** Written to a settings file passed as SHOP_CONFIG. */
  settings?: object;
  /** Restart on this data dir instead of a fresh one. */
  dataDir?: string;
  env?: Record<string, string>;
}): Promise<RunningShop>;
