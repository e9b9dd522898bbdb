import type { Queryable } from './openPostgres';

/**
 * Turns `@name` placeholders (as the SQLite adapters write them) into PostgreSQL's `$n`, one number per distinct
 * name, so a statement can use a value twice. Casts written `@name::type` keep their cast.
 */
function named(text: string, params: Record<string, unknown>): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const index = new Map<string, number>();
  const sql = text.replace(/(?<![:@\w])@([A-Za-z_]\w*)/g, (_all, name: string) => {
    if (!(name in params)) throw new Error(`No value for @${name}`);
    let n = index.get(name);
    if (n === undefined) {
      values.push(params[name] ?? null);
      n = values.length;
      index.set(name, n);
    }
    return `$${n}`;
  });
  return { text: sql, values };
}

export async function queryNamed<R extends object = Record<string, unknown>>(
  db: Queryable,
  text: string,
  params: Record<string, unknown>,
): Promise<R[]> {
  const { text: sql, values } = named(text, params);
  return (await db.query(sql, values)).rows as R[];
}
