import { createHash } from 'node:crypto';
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

/**
 * Runs a statement written with `@name` placeholders. With `prepare`, it runs as a prepared statement named after
 * its text: each connection parses it once and, after a few runs, reuses its plan, instead of parsing and planning
 * it on every request. Only for statements whose text comes from a bounded set (a page's reads), since every
 * distinct text stays prepared on each connection for the connection's life.
 */
export async function queryNamed<R extends object = Record<string, unknown>>(
  db: Queryable,
  text: string,
  params: Record<string, unknown>,
  options: { prepare?: boolean } = {},
): Promise<R[]> {
  const { text: sql, values } = named(text, params);
  if (options.prepare) return (await db.query({ name: statementName(sql), text: sql, values })).rows as R[];
  return (await db.query(sql, values)).rows as R[];
}

/** A prepared statement's name: a digest of its text, so two texts never share a name. */
export function statementName(sql: string): string {
  return `s_${createHash('sha1').update(sql).digest('base64url')}`;
}
