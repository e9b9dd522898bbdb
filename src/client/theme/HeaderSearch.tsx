import type { ReactNode } from 'react';
import { Island } from '../Island';
import HeaderSearchToggle from './HeaderSearchToggle';

const PANEL_ID = 'header-search-panel';

/**
 * The header search icon and its dropdown. The field is the `children` slot (a plain search form until the
 * search box lands); it is server-rendered here, outside the toggle island, so an island inside it hydrates on
 * its own. Without JavaScript the panel is simply shown.
 */
export function HeaderSearch({ children }: { children: ReactNode }) {
  return (
    <div className="header-search">
      <Island name="headerSearchToggle" component={HeaderSearchToggle} props={{ panelId: PANEL_ID }} />
      <div id={PANEL_ID} className="header-search__panel">
        {children}
      </div>
    </div>
  );
}

/** The plain GET search form (works without JavaScript): `/?s={q}&post_type=product`. */
export function SearchForm({ query, submitLabel }: { query: string; submitLabel: string }) {
  return (
    <search>
      <form method="get" action="/" className="search-form">
        <label htmlFor="site-search" className="screen-reader-text">
          Search products
        </label>
        <input id="site-search" type="search" name="s" defaultValue={query} placeholder="Search products…" />
        <input type="hidden" name="post_type" value="product" />
        <button type="submit">{submitLabel}</button>
      </form>
    </search>
  );
}
