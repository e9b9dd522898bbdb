import { openDatabase } from './openDatabase';
import { createPgRepositories } from './postgres/createPgRepositories';
import { openPostgres } from './postgres/openPostgres';
import type { Repositories } from './repositories';
import { createSqliteRepositories } from './sqlite/createSqliteRepositories';

/** True for a `postgres://` or `postgresql://` URL: the one switch between the two engines. */
export function isPostgresUrl(url: string | undefined): boolean {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url);
}

/**
 * The shop's repositories: PostgreSQL when `databaseUrl` is a postgres:// URL (several processes can share it),
 * else the SQLite file in the data dir (the default). Either way the schema is brought up to date first.
 */
export async function openRepositories(options: {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL connections per process (default 10): N processes open up to N × this many. */
  poolMax?: number;
}): Promise<Repositories> {
  const { databaseUrl } = options;
  if (databaseUrl && isPostgresUrl(databaseUrl))
    return createPgRepositories(await openPostgres(databaseUrl, { max: options.poolMax }));
  if (databaseUrl)
    throw new Error(`DATABASE_URL must be a postgres:// URL (got ${databaseUrl.split(':')[0]}:)`);
  return createSqliteRepositories(openDatabase(options.dataDir));
}
