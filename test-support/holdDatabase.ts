import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import pg from 'pg';

/*
 * Another writer holding the database, as `npm run import` does while the shop runs: for tests that check a shopper's
 * write waits for it (without holding the process) and lands once it is released.
 */

export interface Holder {
  release(): Promise<void>;
}

/** A second process on the shop's SQLite file: BEGIN IMMEDIATE, a write, then COMMIT only when told. */
export function holdSqliteWriteLock(file: string): Promise<Holder> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('BEGIN IMMEDIATE');
    db.prepare("INSERT OR REPLACE INTO options (key, value) VALUES ('import_probe', 'held')").run();
    process.stdout.write('locked\\n');
    process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });
  `;
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['-e', script, file], {
    cwd: process.cwd(),
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('exit', (code) => reject(new Error(`lock holder exited (${code}): ${stderr}`)));
    child.stdout.once('data', () =>
      resolve({
        release: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.stdin.write('commit\n');
          }),
      }),
    );
  });
}

/** A second PostgreSQL connection holding a table against every write until released. */
export async function holdPostgresTableLock(url: string, table: string): Promise<Holder> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
  return {
    async release() {
      await client.query('COMMIT');
      await client.end();
    },
  };
}
