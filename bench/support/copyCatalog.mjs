// Copies a seeded SQLite shop's catalog into a PostgreSQL database whose schema is already migrated, table by
// table, the same rows and ids (pgRepositories.test.ts holds that an import writes the same rows on both engines).
// For benchmarks that measure reading a large catalog, not writing it: the copy takes seconds where an import
// of tens of thousands of products takes minutes on a loaded machine.
import Database from 'better-sqlite3';
import pg from 'pg';

/** Parents before children, as the foreign keys need them. */
const CATALOG_TABLES = [
  'vendors',
  'terms',
  'attributes',
  'attribute_terms',
  'products',
  'product_terms',
  'product_images',
  'product_downloads',
  'grouped_children',
  'product_links',
  'product_attributes',
  'product_attribute_terms',
  'variation_attributes',
  'posts',
];
const IDENTITY_TABLES = [
  'vendors',
  'terms',
  'attributes',
  'attribute_terms',
  'products',
  'product_images',
  'posts',
];

export async function copyCatalogToPostgres(dataDir, databaseUrl) {
  const lite = new Database(`${dataDir}/shop.sqlite`, { readonly: true, fileMustExist: true });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    // The search change log's triggers stay quiet: the index is rebuilt from the copied rows afterwards.
    await client.query('SET LOCAL session_replication_role = replica');
    for (const table of CATALOG_TABLES) {
      const rows = lite.prepare(`SELECT * FROM ${table}`).all();
      for (let start = 0; start < rows.length; start += 5000) {
        await client.query(
          `INSERT INTO ${table} OVERRIDING SYSTEM VALUE
           SELECT * FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)`,
          [JSON.stringify(rows.slice(start, start + 5000))],
        );
      }
    }
    for (const table of IDENTITY_TABLES) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM ${table}), false)`,
      );
    }
    await client.query('COMMIT');
    // What autovacuum does within a minute or so of a large write: planner statistics and the visibility map.
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
    lite.close();
  }
}
