import { resolve } from 'node:path';
import { SingleBar } from 'cli-progress';

/**
 * Where a command-line tool finds the shop: DATA_DIR (default ./data) and, for a PostgreSQL shop, DATABASE_URL
 * (README "PostgreSQL and several processes"). An empty DATABASE_URL counts as unset.
 */
export function shopStorageFromEnv(): { databaseUrl: string | undefined; dataDir: string } {
  return {
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: resolve(process.env.DATA_DIR ?? 'data'),
  };
}

/** A progress bar on stderr (stdout stays for the tool's result), drawn even when stderr is not a terminal. */
export function createProgressBar(format: string): SingleBar {
  return new SingleBar({ format, stream: process.stderr, noTTYOutput: false });
}
