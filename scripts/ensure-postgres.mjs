#!/usr/bin/env node
/*
 * Ensures a PostgreSQL server is installed (Debian's `postgresql`, apt-get when missing) and, with a command after
 * `--`, runs that command against a throwaway cluster with DATABASE_URL and TEST_DATABASE_URL set, stopping and
 * deleting the cluster afterwards whatever the command's outcome:
 *
 *   node scripts/ensure-postgres.mjs                      # install if missing, print the server's bin dir
 *   node scripts/ensure-postgres.mjs -- npx vitest run    # run a command against a fresh cluster
 */
import { spawn } from 'node:child_process';
import { ensurePostgresInstalled, startPostgres } from './lib/postgresCluster.mjs';

const separator = process.argv.indexOf('--');
const command = separator === -1 ? [] : process.argv.slice(separator + 1);

if (command.length === 0) {
  console.log(ensurePostgresInstalled());
} else {
  const cluster = await startPostgres({ log: (line) => console.error(line) });
  const stop = () => cluster.stop();
  process.on('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      stop();
      process.exit(130);
    });
  }
  const child = spawn(command[0], command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: cluster.url, TEST_DATABASE_URL: cluster.url },
  });
  child.on('exit', (code, signal) => {
    stop();
    process.exit(code ?? (signal ? 1 : 0));
  });
}
