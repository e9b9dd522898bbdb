import { randomBytes } from 'node:crypto';
import pg from 'pg';

/*
 * Tests against PostgreSQL: TEST_DATABASE_URL points at a server where we may create databases (set by
 * `npm run test:postgres`, which starts a throwaway cluster). Each caller gets its own empty database, dropped
 * afterwards, so test files run in parallel without seeing each other's rows. Without the variable the
 * PostgreSQL variants of the tests are skipped: `npm test` stays on SQLite, and CI runs `npm run test:postgres`.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? '';

export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => dropDatabase(url.toString()),
  };
}

/** Drops a database createTestDatabase made (by its URL), closing its connections first. */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^test_[0-9a-f]{12}$/.test(name)) throw new Error(`Not a test database: ${name}`);
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
