import Database from 'better-sqlite3';
import type { CatalogImport, ImportSummary } from '../../catalog/import/catalogImport';
import { migrate } from '../migrate';
import { writeCatalogImport } from '../sqlite/writeCatalogImport';
import { inTransaction, type PgClient, type PgPool } from './openPostgres';

/*
 * A catalog import on PostgreSQL runs the one import writer there is (sqlite/writeCatalogImport.ts: matching by
 * SKU then ID, terms, attributes, derived prices, row errors) on an in-memory SQLite copy of the catalog, then
 * writes the resulting catalog back, all inside one PostgreSQL transaction that holds the catalog tables
 * locked against other writers: a failure anywhere leaves the catalog as it was, and an order placed meanwhile
 * (stock, total sales) waits for the import instead of being overwritten by the copy.
 *
 * Imports are rare and offline-sized (thousands of rows), so copying the catalog is cheap next to keeping a
 * second import writer in step with the first.
 */

/** The catalog tables, parents before children (the order rows are inserted in; deletes go the other way). */
export const CATALOG_TABLES = [
  'vendors',
  'terms',
  'attributes',
  'attribute_terms',
  'products',
  'product_terms',
  'product_images',
  'product_downloads',
  'grouped_children',
  'product_attributes',
  'product_attribute_terms',
  'variation_attributes',
  'posts',
] as const;

/** Tables whose `id` is an identity column: its sequence must move past ids the import chose. */
const IDENTITY_TABLES = [
  'vendors',
  'terms',
  'attributes',
  'attribute_terms',
  'products',
  'product_images',
  'posts',
];

export async function importCatalogThroughSqlite(
  pool: PgPool,
  catalog: CatalogImport,
  onProgress: (done: number, total: number) => void,
): Promise<ImportSummary> {
  return inTransaction(pool, async (client) => {
    await client.query(`LOCK TABLE ${CATALOG_TABLES.join(', ')} IN SHARE ROW EXCLUSIVE MODE`);
    const mirror = new Database(':memory:');
    try {
      migrate(mirror);
      mirror.pragma('foreign_keys = OFF');
      await copyToSqlite(client, mirror);
      mirror.pragma('foreign_keys = ON');
      const summary = mirror.transaction(() => writeCatalogImport(mirror, catalog, onProgress))();
      await copyToPostgres(mirror, client);
      return summary;
    } finally {
      mirror.close();
    }
  });
}

async function copyToSqlite(client: PgClient, mirror: Database.Database) {
  for (const table of CATALOG_TABLES) {
    const { rows, fields } = await client.query(`SELECT * FROM ${table}`);
    if (rows.length === 0) continue;
    const columns = fields.map((field) => field.name);
    const insert = mirror.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
    );
    mirror.transaction(() => {
      for (const row of rows) insert.run(row);
    })();
  }
}

async function copyToPostgres(mirror: Database.Database, client: PgClient) {
  for (const table of [...CATALOG_TABLES].reverse()) await client.query(`DELETE FROM ${table}`);
  for (const table of CATALOG_TABLES) {
    const rows = mirror.prepare(`SELECT * FROM ${table}`).all();
    // One statement per table: the rows travel as one JSON array and PostgreSQL unpacks them by column name.
    const chunk = 5000;
    for (let start = 0; start < rows.length; start += chunk) {
      await client.query(
        `INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)`,
        [JSON.stringify(rows.slice(start, start + chunk))],
      );
    }
  }
  for (const table of IDENTITY_TABLES) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), COALESCE((SELECT MAX(id) FROM ${table}), 0) + 1, false)`,
    );
  }
}
