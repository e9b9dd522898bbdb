import { join } from 'node:path';
import Database from 'better-sqlite3';

/** Reads the running shop's database (read-only) to check what a flow stored. */
export function readShopDatabase<T>(dataDir: string, read: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, 'shop.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

export function countOrders(dataDir: string): number {
  return readShopDatabase(dataDir, (db) => db.prepare('SELECT COUNT(*) FROM orders').pluck().get() as number);
}
