import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import type { SearchChanges } from './ports';

/*
 * What the change log tells the render cache (migration 0037), on both engines: whether a change shows beyond the
 * object's own page, and which archives list what changed.
 */

const MUG = 1021;
let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({ seed: true });
});
afterAll(async () => shop?.close());

const termId = async (slug: string) =>
  Number(
    (
      await shop.query<{ id: number }>("SELECT id FROM terms WHERE taxonomy = 'product_cat' AND slug = ?", [
        slug,
      ])
    )[0]?.id,
  );
const since = (seq: number) => shop.repositories.pageVersions.pageChangesSince(seq, 1_000);
const now = async () => (await shop.repositories.pageVersions.pageChangesSince(0, 0)).seq;

describe('the change log as the render cache reads it', () => {
  it('a stock count or sale alone is narrow; a price is wide, with the product’s archives and their parents', async () => {
    const start = await now();
    await shop.query('UPDATE products SET stock_quantity = 3, total_sales = total_sales + 1 WHERE id = ?', [
      MUG,
    ]);
    const narrow = await since(start);
    expect(narrow.products).toEqual([{ id: MUG, wide: false }]);
    expect(narrow.archiveTerms).toEqual([]);

    await shop.query('UPDATE products SET regular_price = 19 WHERE id = ?', [MUG]);
    const wide = await since(narrow.seq);
    expect(wide.products).toEqual([{ id: MUG, wide: true }]);
    // Its categories, tags and brand, and the parent category of Kitchen (Home), whose archive lists it too.
    const own = (
      await shop.query<{ term_id: number }>('SELECT term_id FROM product_terms WHERE product_id = ?', [MUG])
    ).map((row) => Number(row.term_id));
    expect(own).toEqual(expect.arrayContaining([await termId('kitchen'), await termId('gifts')]));
    expect(new Set(wide.archiveTerms)).toEqual(new Set([...own, await termId('home')]));

    // A back-office save sets the modification time: wide, as what it changed may live in another table (the image).
    const saved = await since(wide.seq);
    await shop.query("UPDATE products SET updated_at = '2030-01-01T00:00:00.000Z' WHERE id = ?", [MUG]);
    const touched = await since(saved.seq);
    expect(touched.products).toEqual([{ id: MUG, wide: true }]);

    // A narrow change after a wide one: wide for a reader from before both, narrow for one who saw the wide one.
    await shop.query('UPDATE products SET stock_quantity = 2 WHERE id = ?', [MUG]);
    expect((await since(start)).products).toEqual([{ id: MUG, wide: true }]);
    expect((await since(touched.seq)).products).toEqual([{ id: MUG, wide: false }]);
  });

  it('a product leaving a term is narrow for the term, wide for the product; a renamed term is wide', async () => {
    const gifts = await termId('gifts');
    const start = await now();
    await shop.query('DELETE FROM product_terms WHERE product_id = ? AND term_id = ?', [MUG, gifts]);
    const left = await since(start);
    expect(left.terms).toEqual([{ id: gifts, wide: false }]);
    expect(left.products).toEqual([{ id: MUG, wide: true }]);
    expect(left.archiveTerms).toContain(gifts);

    await shop.query("UPDATE terms SET name = 'Presents' WHERE id = ?", [gifts]);
    expect((await since(left.seq)).terms).toEqual([{ id: gifts, wide: true }]);
  });

  it('a product published or hidden logs its terms and vendor narrow: the render cache drops its listings, not every page', async () => {
    const own = (
      await shop.query<{ term_id: number }>('SELECT term_id FROM product_terms WHERE product_id = ?', [MUG])
    ).map((row) => Number(row.term_id));
    const [sold] = await shop.query<{ vendor_id: number }>('SELECT vendor_id FROM products WHERE id = ?', [
      MUG,
    ]);
    const vendor = Number(sold?.vendor_id);
    const start = await now();
    await shop.query("UPDATE products SET visibility = 'hidden' WHERE id = ?", [MUG]);
    const hidden = await since(start);
    expect(hidden.products).toEqual([{ id: MUG, wide: true }]);
    expect(new Set(hidden.terms)).toEqual(new Set(own.map((id) => ({ id, wide: false }))));
    // The vendor's row is narrow: the page cache reads no vendor change (which would drop every page).
    expect(hidden.vendors).toEqual([]);
    // The search reads the vendor's document again (its count), not its products.
    const search = await shop.repositories.search.changesSince(start, 1_000);
    expect(search.vendors).toEqual([vendor]);
    expect(search.editedVendors).toEqual([]);
    expect(search.editedTerms).toEqual([]);

    // Hidden to catalog-only: not searchable either way, so only the product's row moves.
    await shop.query("UPDATE products SET visibility = 'catalog' WHERE id = ?", [MUG]);
    const still = await since(hidden.seq);
    expect(still.terms).toEqual([]);
    expect((await shop.repositories.search.changesSince(hidden.seq, 1_000)).vendors).toEqual([]);

    // A vendor's own change is still wide.
    await shop.query("UPDATE products SET visibility = 'visible' WHERE id = ?", [MUG]);
    const shown = await since(still.seq);
    await shop.query("UPDATE vendors SET city = 'Leek' WHERE id = ?", [vendor]);
    expect((await since(shown.seq)).vendors).toEqual([vendor]);
    expect((await shop.repositories.search.changesSince(shown.seq, 1_000)).editedVendors).toEqual([vendor]);
  });

  it.runIf(!process.env.TEST_DATABASE_URL)(
    'SQLite’s trigger compares every column of products but the stock count and sales',
    async () => {
      const columns = (await shop.query<{ name: string }>('PRAGMA table_info(products)')).map(
        (row) => row.name,
      );
      const [trigger] = await shop.query<{ sql: string }>(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'search_products_update'",
      );
      const compared = columns.filter((column) => trigger?.sql.includes(`OLD.${column} IS NEW.${column}`));
      expect(columns.filter((column) => !compared.includes(column)).sort()).toEqual([
        'stock_quantity',
        'total_sales',
      ]);
    },
  );
  it('a long backlog read in parts: each part after the last, a change wide by where the whole read started', async () => {
    const BOOKENDS = 1031;
    const start = await now();
    // The mug's price (wide), the bookends' stock (narrow), then the mug's stock: its row moves after the bookends'.
    await shop.query('UPDATE products SET regular_price = 21 WHERE id = ?', [MUG]);
    await shop.query('UPDATE products SET stock_quantity = 5 WHERE id = ?', [BOOKENDS]);
    await shop.query('UPDATE products SET stock_quantity = 4 WHERE id = ?', [MUG]);
    const part = (seq: number) =>
      shop.repositories.pageVersions.pageChangesSince(seq, 1, { wideAfter: start });
    const first = await part(start);
    expect(first.products).toEqual([{ id: BOOKENDS, wide: false }]);
    expect(first.more).toBe(true);
    expect(first.full).toBe(false);
    const second = await part(first.seq);
    // Wide: its price changed after the read began, though before the first part's position.
    expect(second.products).toEqual([{ id: MUG, wide: true }]);
    expect(second.archiveTerms.length).toBeGreaterThan(0);
    expect(second.more).toBe(false);
    expect(second.seq).toBe(await now());
  });

  it('the search index reads a long backlog in parts too: a term renamed before a part began still counts edited', async () => {
    const BOOKENDS = 1031;
    const kitchen = await termId('kitchen');
    const start = await now();
    await shop.query('UPDATE terms SET name = ? WHERE id = ?', ['Kitchen & Table', kitchen]);
    await shop.query('UPDATE products SET stock_quantity = 6 WHERE id = ?', [BOOKENDS]);
    // The bookends join the kitchen: its row moves after theirs, narrow (it only gained a product).
    await shop.query('INSERT INTO product_terms (product_id, term_id) VALUES (?, ?)', [BOOKENDS, kitchen]);
    const whole = await shop.repositories.search.changesSince(start, 1_000);
    const parts: SearchChanges[] = [];
    for (let seq = start, more = true; more; ) {
      const part = await shop.repositories.search.changesSince(seq, 1, { wideAfter: start });
      parts.push(part);
      ({ seq, more = false } = part);
    }
    expect(parts.map((part) => [part.products, part.terms, part.more])).toEqual([
      [[BOOKENDS], [], true],
      [[], [kitchen], false],
    ]);
    // Edited: renamed after the read began, though before the second part's position.
    expect(parts[1]?.editedTerms).toEqual([kitchen]);
    expect(whole.editedTerms).toEqual([kitchen]);
    expect(parts.every((part) => !part.full)).toBe(true);
    expect(parts[1]?.seq).toBe(whole.seq);
  });
});
