import { createPostgresSearchIndex } from '../search/postgres/PostgresSearchIndex';
import type { SearchIndex } from '../search/SearchIndex';
import { openDatabase } from './openDatabase';
import type { Repositories } from './ports';
import { type ChangeNotifications, pgChangeNotifications } from './postgres/changeNotifications';
import { createPgRepositories } from './postgres/createPgRepositories';
import { openPostgres } from './postgres/openPostgres';
import { createSqliteRepositories } from './sqlite/createSqliteRepositories';

/** True for a `postgres://` or `postgresql://` URL: the one switch between the two engines. */
export function isPostgresUrl(url: string | undefined): boolean {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url);
}

/**
 * The shop's repositories: PostgreSQL when `databaseUrl` is a postgres:// URL (several processes can share it),
 * else the SQLite file in the data dir (the default). Either way the schema is brought up to date first.
 */
interface StorageOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL connections per process (default 10): N processes open up to N × this many. */
  poolMax?: number;
}

export async function openRepositories(options: StorageOptions): Promise<Repositories> {
  return (await openStorage(options, { searchIndex: false })).repositories;
}

interface ShopStorage {
  repositories: Repositories;
  /**
   * On PostgreSQL the search index in shared tables: it answers while a process builds its embedded replica, and
   * `npm run reindex` rebuilds it. Absent on SQLite, where each process only embeds its own.
   */
  searchFallback?: SearchIndex;
  /** On PostgreSQL the change notifications (LISTEN shop_changes) that wake each process's replica. */
  changeNotifications?: ChangeNotifications;
}

/**
 * The repositories and, on PostgreSQL, the shared search index (its tables created if missing) and the change
 * notifications: a server's storage. Close `changeNotifications` with the repositories.
 */
export function openShopStorage(options: StorageOptions): Promise<ShopStorage> {
  return openStorage(options, { searchIndex: true });
}

async function openStorage(options: StorageOptions, wanted: { searchIndex: boolean }): Promise<ShopStorage> {
  const { databaseUrl } = options;
  if (databaseUrl && isPostgresUrl(databaseUrl)) {
    const pool = await openPostgres(databaseUrl, { max: options.poolMax });
    return {
      repositories: createPgRepositories(pool),
      searchFallback: wanted.searchIndex ? await createPostgresSearchIndex(pool) : undefined,
      changeNotifications: wanted.searchIndex ? pgChangeNotifications(databaseUrl) : undefined,
    };
  }
  if (databaseUrl)
    throw new Error(`DATABASE_URL must be a postgres:// URL (got ${databaseUrl.split(':')[0]}:)`);
  return { repositories: createSqliteRepositories(openDatabase(options.dataDir)) };
}
