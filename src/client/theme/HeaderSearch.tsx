import type { ReactNode } from 'react';
import { Island } from '../Island';
import HeaderSearchToggle from './HeaderSearchToggle';

const PANEL_ID = 'header-search-panel';

/**
 * The header search icon and its dropdown. The field is the `children` slot (the search box); it is
 * server-rendered here, outside the toggle island, so an island inside it hydrates on
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
