import { expect, vi } from 'vitest';
import { generateBenchCatalog } from '../src/server/catalog/bench/generateBenchCatalog';
import type { SearchRepository } from '../src/server/db/ports';
import { MemorySearchIndex } from '../src/server/search/MemorySearchIndex';

/* What the tests of imports handed over to the server processes share, on either engine. */

/** The bench catalog of `seed` (1,600 products) under SKUs starting `prefix` instead of BN-: new products for a shop. */
export function newBenchProducts(prefix: string, seed: number) {
  const catalog = generateBenchCatalog({ products: 1600, seed });
  const renumbered = (sku: string) => sku.replace(/^BN-/, `${prefix}-`);
  catalog.products = catalog.products.map((row) => ({
    ...row,
    sku: row.sku && renumbered(row.sku),
    parent: row.parent && 'sku' in row.parent ? { sku: renumbered(row.parent.sku) } : row.parent,
  }));
  catalog.site.products = Object.fromEntries(
    Object.entries(catalog.site.products).map(([sku, sidecar]) => [renumbered(sku), sidecar]),
  );
  return catalog;
}

/** A server process's search in those tests: its answers to a few queries, and its end. */
interface AnsweringReplica {
  answers(): Promise<number[][]>;
  close(): Promise<void>;
}

/** Each replica answers as `fresh`, a replica built from the committed catalog (closed afterwards). */
export async function expectAnswersOfFresh(replicas: readonly AnsweringReplica[], fresh: AnsweringReplica) {
  try {
    const expected = await fresh.answers();
    expect(expected.flat().length).toBeGreaterThan(0);
    for (const each of replicas) expect(await each.answers()).toEqual(expected);
  } finally {
    await fresh.close();
  }
}

/**
 * A server process's indexes for those tests: each merge `mergeDelayMs` late (or failing), counted in `built` once
 * built.
 */
export function timedMerges(options: { mergeDelayMs?: number; failing?: boolean }) {
  const built = { merges: 0 };
  class TimedMerges extends MemorySearchIndex {
    override async mergeInSlices(...args: Parameters<MemorySearchIndex['mergeInSlices']>) {
      await new Promise((resolve) => setTimeout(resolve, options.mergeDelayMs ?? 0));
      if (options.failing) throw new Error('out of memory, say');
      await super.mergeInSlices(...args);
      built.merges++;
    }
  }
  return { built, createIndex: () => new TimedMerges() };
}

/**
 * `search` counting the product documents read from the catalog (`read.products`), with some of its members
 * replaced by `overrides`.
 */
export function countingReads(search: SearchRepository, overrides: Partial<SearchRepository> = {}) {
  const read = { products: 0 };
  const load: SearchRepository['loadDocuments'] = async (...args) => {
    const loaded = await search.loadDocuments(...args);
    read.products += loaded.documents.filter((document) => document.kind === 'product').length;
    return loaded;
  };
  const replaced: Partial<SearchRepository> = { loadDocuments: load, ...overrides };
  const repository: SearchRepository = new Proxy(search, {
    get(target, property) {
      if (property in replaced) return replaced[property as keyof SearchRepository];
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { repository, read };
}

/** What each replica is asked, to compare its answers with a fresh build's. */
export const HANDOFF_QUERIES = ['cotton', 'sh', 'linen shirt', 'oak', 'tea towel'];

/** Waits (generously: the machine may be busy) until `check` passes. */
export function waitUntil<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 30_000, interval: 20 });
}
