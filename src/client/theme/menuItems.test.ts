import { describe, expect, it } from 'vitest';
import type { Term } from '../../shared/catalog/types';
import { menuItems } from './menuItems';

const term = (id: number, name: string, parentId: number | null, path: string[]): Term => ({
  id,
  taxonomy: 'product_cat',
  slug: path.at(-1) ?? '',
  name,
  parentId,
  description: '',
  path,
});

describe('menuItems', () => {
  it('nests subcategories under their top-level category between Shop and About', () => {
    const items = menuItems([
      term(1, 'Apparel', null, ['apparel']),
      term(2, 'Shirts', 1, ['apparel', 'shirts']),
      term(3, 'Home', null, ['home']),
    ]);
    expect(items.map((item) => item.label)).toEqual(['Shop', 'Apparel', 'Home', 'About']);
    expect(items[1]?.children).toEqual([
      { label: 'Shirts', url: '/product-category/apparel/shirts/', children: [] },
    ]);
  });

  it('links Shop and About to their pages, with no submenu', () => {
    const items = menuItems([]);
    expect(items).toEqual([
      { label: 'Shop', url: '/shop/', children: [] },
      { label: 'About', url: '/about/', children: [] },
    ]);
  });
});
