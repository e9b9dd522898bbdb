import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { z } from 'zod';
import { buildApp } from './app';
import { seedDemoCatalog } from './catalog/import/seedDemoCatalog';
import { loadConfig } from './config/loadConfig';
import { checkDatabaseIdentity } from './db/databaseIdentity';
import { isPostgresUrl, openShopStorage } from './db/openRepositories';
import { redactUrl } from './http/redactUrl';
import { readClientAssets } from './render/clientAssets';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The only place that reads the environment: PORT, HOST, DATA_DIR, SHOP_CONFIG (README "Configuration"), and
 * DATABASE_URL (README "PostgreSQL and several processes").
 */
async function main() {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  const dataDir = resolve(process.env.DATA_DIR ?? 'data');

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env.SHOP_CONFIG);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }

  const databaseUrl = process.env.DATABASE_URL || undefined;
  let storage: Awaited<ReturnType<typeof openShopStorage>>;
  try {
    // DATABASE_POOL_MAX: connections per process, so N processes stay under PostgreSQL's max_connections.
    const poolMax = z.coerce
      .number()
      .int()
      .positive()
      .max(1000)
      .optional()
      .parse(process.env.DATABASE_POOL_MAX || undefined);
    storage = await openShopStorage({ databaseUrl, dataDir, poolMax });
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const { repositories, searchFallback, changeNotifications } = storage;
  let secret: string;
  try {
    secret = await repositories.firstStart(async () => {
      await checkDatabaseIdentity(repositories.options, dataDir);
      if (await seedDemoCatalog(repositories)) {
        console.log(`Seeded the demo catalog into ${isPostgresUrl(databaseUrl) ? 'PostgreSQL' : dataDir}`);
      }
      // Every process must sign with the same secret: the configured one, else the one the database keeps.
      return (
        config.server.secret ??
        repositories.options.setIfAbsent('secret', randomBytes(32).toString('base64url'))
      );
    });
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }

  const app = await buildApp({
    config,
    repositories,
    secret,
    assets: readClientAssets(),
    dataDir,
    searchFallback,
    changeNotifications,
    // The bundle's own entry beside this one (vite.server.config.ts).
    searchReadWorker: new URL('./search-read-worker.js', import.meta.url),
    // Warnings by default: a dropped write or a failed request must be seen without asking for the request log.
    logger: {
      level: process.env.LOG_LEVEL || 'warn',
      // Request lines without the API keys a client may put in the query string.
      serializers: {
        req: (request: { method: string; url: string }) => ({
          method: request.method,
          url: redactUrl(request.url),
        }),
      },
    },
  });
  console.log(
    `Search index: ${
      searchFallback
        ? 'replica (embedded in this process, fed by the PostgreSQL change log; the shared table index answers while it builds)'
        : 'embedded (in this process)'
    }`,
  );
  console.log(`Order mail: ${app.mail.destination}`);
  await app.listen({ port, host });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  console.log(`Shop listening on http://${host}:${actualPort}/`);
  if (!(await app.owner.isConfigured())) {
    console.log('No owner is set yet: run `npm run owner -- set-password` to become the owner.');
  }

  const cleanup = setInterval(
    () => {
      void repositories.sessions.deleteExpired(Date.now()).catch(() => undefined);
      void app.rateLimiter.deleteExpired().catch(() => undefined);
    },
    60 * 60 * 1000,
  );
  cleanup.unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      // Finish in-flight requests and batched writes, but never hang a deploy or a test on a stuck connection.
      setTimeout(() => {
        console.error(`Shutdown took over ${SHUTDOWN_GRACE_MS} ms; exiting anyway`);
        process.exit(1);
      }, SHUTDOWN_GRACE_MS).unref();
      await app.close();
      await changeNotifications?.close();
      await repositories.close();
      process.exit(0);
    });
  }
}

void main();
