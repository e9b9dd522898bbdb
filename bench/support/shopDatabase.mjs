// Read-only SQL on a running shop's database, either engine, for benchmarks that check what the requests stored
// (orders, stock) instead of trusting the answers.
import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * Opens the shop's database read-only: its PostgreSQL database when `databaseUrl` is given, else `shop.sqlite`
 * in `dataDir`. Queries take `?` placeholders on both engines. `rows(sql, params)` resolves to plain objects,
 * `value(sql, params)` to the first column of the first row.
 */
export async function openShopDatabase({ dataDir, databaseUrl }) {
  if (!databaseUrl) {
    const db = new Database(`${dataDir}/shop.sqlite`, { readonly: true, fileMustExist: true });
    return {
      rows: async (sql, params = []) => db.prepare(sql).all(...params),
      value: async (sql, params = []) =>
        db
          .prepare(sql)
          .pluck()
          .get(...params),
      close: async () => db.close(),
    };
  }
  const client = new pg.Client({
    connectionString: databaseUrl,
    options: '-c default_transaction_read_only=on',
  });
  await client.connect();
  const rows = async (sql, params = []) => {
    let n = 0;
    return (
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows;
  };
  return {
    rows,
    value: async (sql, params = []) => {
      const [first] = await rows(sql, params);
      return first === undefined ? undefined : Object.values(first)[0];
    },
    close: () => client.end(),
  };
}
