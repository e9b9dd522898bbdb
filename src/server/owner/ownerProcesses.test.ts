import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings } from '../../shared/settings/parseSettings';
import { buildApp } from '../app';
import { openDatabase } from '../db/openDatabase';
import type { Repositories } from '../db/ports';
import { createPgRepositories } from '../db/postgres/createPgRepositories';
import { openPostgres } from '../db/postgres/openPostgres';
import { createTestDatabase, TEST_DATABASE_URL } from '../db/postgres/testDatabase';
import { createSqliteRepositories } from '../db/sqlite/createSqliteRepositories';
import { TEST_SECRET } from '../testing/createTestApp';
import { TEST_OWNER_TOKEN, testOwnerServer } from '../testing/testOwner';
import { ADDRESS_BACKOFF } from './loginLimiter';

/*
 * The login limiter is the database's, not a process's: two app instances on one database (two connections to
 * one SQLite file; under `npm run test:postgres`, two pools on one PostgreSQL database) share each client's
 * back-off, and an app started again on the same database remembers it.
 */

let dataDir: string;
let databaseUrl: string | null = null;
let dropDatabase: () => Promise<void> = async () => {};
const opened: Repositories[] = [];
const apps: FastifyInstance[] = [];
const config = parseSettings({ server: testOwnerServer });

async function openRepositories(): Promise<Repositories> {
  const repositories = databaseUrl
    ? createPgRepositories(await openPostgres(databaseUrl, { max: 4 }))
    : createSqliteRepositories(openDatabase(dataDir));
  opened.push(repositories);
  return repositories;
}

async function startApp(): Promise<FastifyInstance> {
  const app = await buildApp({
    config,
    repositories: await openRepositories(),
    secret: TEST_SECRET,
    assets: { scripts: [], styles: [], preloads: [] },
    dataDir,
  });
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'shop-'));
  if (TEST_DATABASE_URL) {
    const database = await createTestDatabase();
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
});

afterAll(async () => {
  for (const app of apps) await app.close().catch(() => undefined);
  for (const repositories of opened) await repositories.close().catch(() => undefined);
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

const report = (app: FastifyInstance, token: string, ip: string) =>
  app.inject({
    url: '/wp-json/stats/v1/report',
    remoteAddress: ip,
    headers: { authorization: `Bearer ${token}` },
  });
const wrongToken = (attempt: number) => `wrong-${attempt}-${'x'.repeat(24)}`;

describe('the login limiter across processes and restarts', () => {
  it('shares one back-off between two apps on one database, and keeps it over a restart', async () => {
    const [first, second] = [await startApp(), await startApp()];
    const attacker = '203.0.113.50';
    // Wrong tokens alternately on both processes: the fifth locks the address on both.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < ADDRESS_BACKOFF.freeFailures; attempt++)
      statuses.push((await report(attempt % 2 ? second : first, wrongToken(attempt), attacker)).statusCode);
    expect(statuses.every((status) => status === 401)).toBe(true);
    expect((await report(first, TEST_OWNER_TOKEN, attacker)).statusCode).toBe(429);
    expect((await report(second, TEST_OWNER_TOKEN, attacker)).statusCode).toBe(429);

    // Restart: the first process stops, a new one starts on the same database.
    await first.close();
    const restarted = await startApp();
    const after = await report(restarted, TEST_OWNER_TOKEN, attacker);
    expect(after.statusCode).toBe(429);
    expect(Number(after.headers['retry-after'])).toBeGreaterThan(0);
    expect((await report(restarted, TEST_OWNER_TOKEN, '192.0.2.10')).statusCode).toBe(200);
  });

  it('checks no more than the free failures when two processes are guessed at concurrently', async () => {
    const [first, second] = [await startApp(), await startApp()];
    const guess = async (app: FastifyInstance, attempt: number) => {
      const basic = Buffer.from(`owner:wrong-password-${attempt}`).toString('base64');
      const response = await app.inject({
        url: '/insights/api/visitors',
        remoteAddress: '203.0.113.77',
        headers: { authorization: `Basic ${basic}` },
      });
      return response.statusCode;
    };
    const statuses = await Promise.all(
      Array.from({ length: 24 }, (_, attempt) => guess(attempt % 2 ? second : first, attempt)),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(ADDRESS_BACKOFF.freeFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(24 - ADDRESS_BACKOFF.freeFailures);
  });
});
