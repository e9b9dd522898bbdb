import type { SearchDocument } from '../../search/SearchIndex';
import type { SearchChanges, SearchScope } from '../ports';
import { HandoffEnded } from '../ports/search';

/*
 * What both engines' imports hand over to the server processes before they commit (docs/search-engine.md "Imports
 * handed over"), and in which parts: PostgreSQL's handOffImport.ts and SQLite's handOffImportSqlite.ts store them
 * each their own way.
 */

/** Changed products below which an import hands nothing over: the processes apply them as small updates. */
export const HANDOFF_MIN_PRODUCTS = 1500;
/** Changes past which the processes rebuild from scratch anyway (SearchService INCREMENTAL_LIMIT). */
export const HANDOFF_MAX_CHANGES = 50_000;
/** Changed products per stored part: a process reads and parses one part between two pauses. */
const PART_PRODUCTS = 1000;
/** How long an import waits for the processes to build before it commits anyway. */
export const HANDOFF_WAIT_MS = 10_000;

/** The terms' and vendors' names before an import wrote anything: which of those it edited it renamed. */
export interface NamesBefore {
  terms: Map<number, string>;
  vendors: Map<number, string>;
}

/** Every term's and vendor's name, as `kind`, `id`, `name` rows (a few hundred rows). */
export const NAMES_SQL =
  "SELECT 'term' AS kind, id, name FROM terms UNION ALL SELECT 'vendor', id, name FROM vendors";

export function namesOfRows(
  rows: readonly { kind: 'term' | 'vendor'; id: number; name: string }[],
): NamesBefore {
  const names: NamesBefore = { terms: new Map(), vendors: new Map() };
  for (const row of rows) names[row.kind === 'term' ? 'terms' : 'vendors'].set(Number(row.id), row.name);
  return names;
}

/**
 * Of the terms or vendors an import edited that existed before it (`held`, with their names `now`), those whose
 * products' documents must be read again: the renamed and the deleted ones (their products' documents show the
 * name). One the import created shows only on products that link to it anew, which are changes of their own, and
 * one whose name stayed shows nothing new (as the processes narrow them, SearchService `#namesCompared`): reading
 * their products again read a first import's 20,000 products twice.
 */
export function renamedOf(
  held: readonly number[],
  before: Map<number, string>,
  now: readonly { id: number; name: string }[],
): number[] {
  const names = new Map(now.map((row) => [Number(row.id), row.name]));
  return held.filter((id) => names.get(id) !== before.get(id));
}

/** Of the edited ids, those that existed before the import (the only ones it can have renamed). */
export function heldBefore(edited: readonly number[], before: Map<number, string>): number[] {
  return edited.filter((id) => before.has(id));
}

/**
 * The parts of a handoff: the products by thousands, then the terms, vendors and posts (and the products of edited
 * ones), as a merge reads them (SearchService #changedDocuments).
 */
export function handoffScopes(changes: SearchChanges): SearchScope[] {
  const none = { products: [], terms: [], vendors: [], posts: [] };
  const scopes: SearchScope[] = [];
  for (let at = 0; at < changes.products.length; at += PART_PRODUCTS) {
    scopes.push({ ...none, products: changes.products.slice(at, at + PART_PRODUCTS) });
  }
  if (changes.terms.length + changes.vendors.length + changes.posts.length > 0) {
    scopes.push({ ...changes, products: [] });
  }
  return scopes;
}

/** A handoff's row as a process reads it with the part it asks for (null columns: not stored yet). */
export interface StoredPart {
  documents: string | null;
  removed_keys: string | null;
  /** How many parts the import stored, once it stored them all. */
  parts: number | null;
  /** Whether the import ended (committed, rolled back or gone). */
  ended: boolean;
}

/** How often a process looks for the next part while the import is still writing it. */
const PART_POLL_MS = 20;

/**
 * Part `part` of a handoff once the import stored it (`read` looks; undefined once the handoff is cleared), null
 * past the last part; fails with HandoffEnded when the import ended without storing it (ImportHandoffs.part).
 */
export async function storedPart(
  read: () => Promise<StoredPart | undefined>,
  part: number,
): Promise<{ documents: SearchDocument[]; removedKeys: string[] } | null> {
  for (;;) {
    const row = await read();
    if (row?.documents != null && row.removed_keys != null) {
      return {
        documents: JSON.parse(row.documents) as SearchDocument[],
        removedKeys: JSON.parse(row.removed_keys) as string[],
      };
    }
    if (row && row.parts !== null && part >= row.parts) return null;
    if (!row || row.ended) {
      throw new HandoffEnded(`The import ended before handing over part ${part} of its documents`);
    }
    await new Promise((resolve) => setTimeout(resolve, PART_POLL_MS));
  }
}
