import { createHash } from 'node:crypto';
import type { Queryable } from './openPostgres';

/** A statement's text translated once: PostgreSQL's text, the parameter names in `$n` order, its prepared name. */
interface Translated {
  sql: string;
  names: string[];
  name: string;
}

/*
 * Translations by source text. A page's reads come from a bounded set of texts and run on every request: the
 * regular expression and the digest ran per statement, a cost PostgreSQL pays and SQLite (statements prepared
 * once) does not. Texts built per call (import batches, long id lists) would grow it without end: past the bound
 * it is emptied and refills with what runs now.
 */
const translations = new Map<string, Translated>();
const TRANSLATIONS_KEPT = 2_000;

/**
 * Turns `@name` placeholders (as the SQLite adapters write them) into PostgreSQL's `$n`, one number per distinct
 * name, so a statement can use a value twice. Casts written `@name::type` keep their cast.
 */
function translate(text: string): Translated {
  let translated = translations.get(text);
  if (translated) return translated;
  const names: string[] = [];
  const index = new Map<string, number>();
  const sql = text.replace(/(?<![:@\w])@([A-Za-z_]\w*)/g, (_all, name: string) => {
    let n = index.get(name);
    if (n === undefined) {
      n = names.push(name);
      index.set(name, n);
    }
    return `$${n}`;
  });
  translated = { sql, names, name: statementName(sql) };
  if (translations.size >= TRANSLATIONS_KEPT) translations.clear();
  translations.set(text, translated);
  return translated;
}

function named(
  text: string,
  params: Record<string, unknown>,
): { text: string; values: unknown[]; name: string } {
  const { sql, names, name } = translate(text);
  const values = names.map((key) => {
    if (!(key in params)) throw new Error(`No value for @${key}`);
    return params[key] ?? null;
  });
  return { text: sql, values, name };
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
  const { text: sql, values, name } = named(text, params);
  if (options.prepare) return (await db.query({ name, text: sql, values })).rows as R[];
  return (await db.query(sql, values)).rows as R[];
}

/** A prepared statement's name: a digest of its text, so two texts never share a name. */
export function statementName(sql: string): string {
  return `s_${createHash('sha1').update(sql).digest('base64url')}`;
}
