import type { Term } from '../../shared/catalog/types';
import { termUrl } from '../../shared/catalog/urls';

export interface MenuItem {
  label: string;
  url: string;
  children: MenuItem[];
}

/** The header menu: the shop, each top-level category with its subcategories as a submenu, and the about page. */
export function menuItems(categories: Term[]): MenuItem[] {
  const childrenOf = (parentId: number | null): MenuItem[] =>
    categories
      .filter((category) => category.parentId === parentId)
      .map((category) => ({
        label: category.name,
        url: termUrl(category),
        children: childrenOf(category.id),
      }));
  return [
    { label: 'Shop', url: '/shop/', children: [] },
    ...childrenOf(null),
    { label: 'About', url: '/about/', children: [] },
  ];
}
