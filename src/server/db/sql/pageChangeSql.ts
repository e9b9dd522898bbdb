import type { PageChanges, SearchChanges } from '../ports';
import { noChanges } from '../ports/search';

/*
 * The render cache's reading of the catalog change log (migration 0037), shared by both engines: the rows after a
 * position with whether each shows beyond its own page, then the archives those changes reach.
 */

export interface ChangeLogRow {
  seq: number;
  kind: string;
  ref_id: number;
  wide: boolean | number;
}

/** The change log's rows after `seq` (read with CHANGE_LOG_ROWS, in order) as the changes they record. */
export function changesOfRows(rows: readonly ChangeLogRow[], seq: number): SearchChanges {
  const changes = noChanges(rows.at(-1)?.seq ?? seq);
  for (const row of rows) {
    const list = {
      product: changes.products,
      term: changes.terms,
      vendor: changes.vendors,
      post: changes.posts,
    }[row.kind];
    list?.push(row.ref_id);
    // A term's row is wide when the term itself changed, narrow when it only gained or lost products.
    if (row.kind === 'term' && row.wide) changes.editedTerms?.push(row.ref_id);
    // A vendor's row likewise: wide when the vendor itself changed, narrow when only its count did (0042).
    if (row.kind === 'vendor' && row.wide) changes.editedVendors?.push(row.ref_id);
  }
  return changes;
}

/**
 * A part of a long read (`changesSince` with a part): the first `limit` of the rows read (`limit + 1` asked), and
 * whether the log holds more after them.
 */
export function changesOfPart(rows: readonly ChangeLogRow[], seq: number, limit: number): SearchChanges {
  return { ...changesOfRows(rows.slice(0, limit), seq), more: rows.length > limit };
}

/**
 * The rows after position $1, oldest first, at most $2; `wide` when the row's wide_seq is after the position too.
 * The search replicas read the same rows (a term's wide row: the term itself changed, not only its members).
 */
export const CHANGE_LOG_ROWS = {
  sqlite: `SELECT seq, kind, ref_id, coalesce(wide_seq, seq) > ? AS wide FROM search_changes
    WHERE seq > ? ORDER BY seq LIMIT ?`,
  postgres: `SELECT seq, kind, ref_id::int AS ref_id, coalesce(wide_seq, seq) > $1 AS wide FROM search_changes
    WHERE seq > $1 ORDER BY seq LIMIT $2`,
} as const;

/** PostgreSQL's CHANGE_LOG_ROWS with its own position for the wide test ($3: a read in parts, PagePart). */
export const CHANGE_LOG_PART_ROWS_PG = `SELECT seq, kind, ref_id::int AS ref_id, coalesce(wide_seq, seq) > $3 AS wide
  FROM search_changes WHERE seq > $1 ORDER BY seq LIMIT $2`;

/**
 * The terms of the given products and the given terms, with every ancestor: the archives that list those products
 * or those terms' members (a category's archive lists its subcategories' products too).
 */
export const ARCHIVE_TERMS = {
  sqlite: `WITH RECURSIVE up(id) AS (
      SELECT id FROM (
        SELECT term_id AS id FROM product_terms WHERE product_id IN (SELECT value FROM json_each(?))
        UNION SELECT value AS id FROM json_each(?)
      )
      UNION SELECT t.parent_id FROM terms t JOIN up ON t.id = up.id WHERE t.parent_id IS NOT NULL
    )
    SELECT id FROM up`,
  postgres: `WITH RECURSIVE up(id) AS (
      SELECT id FROM (
        SELECT term_id::bigint AS id FROM product_terms WHERE product_id = ANY($1::bigint[])
        UNION SELECT unnest($2::bigint[]) AS id
      ) AS given
      UNION SELECT t.parent_id::bigint FROM terms t JOIN up ON t.id = up.id WHERE t.parent_id IS NOT NULL
    )
    SELECT id::int AS id FROM up`,
} as const;

/** The rows sorted by kind; `archiveTerms` is filled by the caller from ARCHIVE_TERMS. */
export function pageChangesOf(
  position: number,
  rows: ChangeLogRow[],
  limit: number,
  rules: string,
  /** A read in parts (PagePart): past `limit`, the first `limit` and `more`, not `full`. */
  inParts = false,
): PageChanges {
  const more = rows.length > limit;
  const read = inParts ? rows.slice(0, limit) : rows;
  const changes: PageChanges = {
    seq: read.at(-1)?.seq ?? position,
    full: more && !inParts,
    ...(inParts && { more }),
    rules,
    products: [],
    terms: [],
    vendors: [],
    posts: [],
    archiveTerms: [],
  };
  if (changes.full) return changes;
  for (const row of read) {
    const id = Number(row.ref_id);
    const wide = Boolean(row.wide);
    if (row.kind === 'product') changes.products.push({ id, wide });
    else if (row.kind === 'term') changes.terms.push({ id, wide });
    // A narrow vendor row only gained or lost products (migration 0042): the products' own wide rows drop the pages
    // listing them (a vendor's archive is a catalog-wide page), so only a change of the vendor itself counts here.
    else if (row.kind === 'vendor' && wide) changes.vendors.push(id);
    else if (row.kind === 'post') changes.posts.push(id);
  }
  return changes;
}

/** The products whose listings moved and the terms products joined or left: the archives to look up. */
export function archiveLookup(changes: PageChanges): { products: number[]; terms: number[] } {
  return {
    products: changes.products.filter((change) => change.wide).map((change) => change.id),
    terms: changes.terms.filter((change) => !change.wide).map((change) => change.id),
  };
}
