import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OptionRepository } from './ports';

/** The file in the data dir that remembers which database this shop was created with. */
export const DATABASE_ID_FILE = 'database-id';

/**
 * Refuses to start on a database that is not the one this data dir was used with: a SQLite file deleted (or a
 * DATABASE_URL pointed elsewhere) would otherwise come up empty, be seeded with the demo catalog and take orders as
 * if nothing had happened, while the real orders are lost. The database keeps a random id (options `database_id`)
 * and the data dir a copy of it; they must agree.
 */
export async function checkDatabaseIdentity(options: OptionRepository, dataDir: string): Promise<void> {
  const id = await options.setIfAbsent('database_id', randomBytes(16).toString('hex'));
  const file = join(dataDir, DATABASE_ID_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${id}\n`);
    return;
  }
  const remembered = readFileSync(file, 'utf8').trim();
  if (remembered !== id) {
    throw new Error(
      `The database is not the one this shop's data dir (${dataDir}) was used with: it was deleted, replaced or ` +
        'points elsewhere, and its orders would be lost. Restore the database from a backup; to start this data ' +
        `dir afresh on purpose, delete ${file}.`,
    );
  }
}
