import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import type { Term } from '../../shared/catalog/types';
import { categoryAtPath } from './catalogPlugin';

/*
 * A category page finds its category among the categories read once per catalog change, instead of asking the
 * database on every page: it must find exactly what the repository's getTermByPath finds, on whichever engine the
 * run uses, for every path that names a category and for paths that must not.
 */

let shop: TestApp;
let categories: Term[];
beforeAll(async () => {
  shop = await createTestApp();
  categories = await shop.repositories.catalog.listTerms('product_cat');
});
afterAll(() => shop?.close());

describe('the category at a path', () => {
  it('is the one getTermByPath finds, for every category, its slug alone and wrong paths', async () => {
    const paths: string[][] = [];
    for (const category of categories) {
      paths.push(
        category.path,
        [category.slug],
        [...category.path, 'nothing'],
        ['nothing', ...category.path],
      );
      // A child under another parent, and a path that skips a level.
      for (const other of categories)
        if (other.id !== category.parentId) paths.push([other.slug, category.slug]);
      if (category.path.length > 1) paths.push(category.path.slice(1));
    }
    expect(categories.some((category) => category.path.length > 1)).toBe(true);
    let found = 0;
    for (const path of paths) {
      const expected = await shop.repositories.catalog.getTermByPath('product_cat', path);
      if (expected) found++;
      expect(categoryAtPath(categories, path), path.join('/')).toEqual(expected);
    }
    // Both kinds are exercised: paths that name a category and paths that do not.
    expect(found).toBeGreaterThan(categories.length);
    expect(paths.length - found).toBeGreaterThan(categories.length);
  });

  it('a nested category page and a wrong parent in the address', async () => {
    const get = (url: string) => shop.app.inject({ method: 'GET', url });
    expect((await get('/product-category/home/kitchen/')).statusCode).toBe(200);
    expect((await get('/product-category/apparel/kitchen/')).statusCode).toBe(404);
    expect((await get('/product-category/no-such-category/')).statusCode).toBe(404);
  });
});
