import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import type { IslandMarkup } from '../../client/Island';
import type { IslandName } from '../../client/islands';
import { ShopSettingsContext } from '../../client/ShopSettingsContext';
import HeaderMenu from '../../client/theme/HeaderMenu';
import { menuItems } from '../../client/theme/menuItems';
import type { Term } from '../../shared/catalog/types';
import type { PageSettings } from '../../shared/settings/settingsSchema';

/**
 * An island rendered on its own, for `<PrerenderedIsland>`: the same bytes `<Island>` renders inside a page (islands
 * take no `useId` and are hydrated as their own roots, so rendering one alone changes nothing). Only for an island
 * whose markup depends on its props and the shop's settings alone, never on the visitor (nonces, cart).
 */
export function islandMarkup<Props extends object>(
  name: IslandName,
  Component: ComponentType<Props>,
  props: Props,
  settings: PageSettings,
): IslandMarkup {
  return {
    name,
    props: JSON.stringify(props),
    html: renderToString(
      <ShopSettingsContext value={settings}>
        <Component {...props} />
      </ShopSettingsContext>,
    ),
  };
}

/** The header menu of these categories: the same on every page until the catalog changes. */
export function headerMenuMarkup(categories: Term[], settings: PageSettings): IslandMarkup {
  return islandMarkup('headerMenu', HeaderMenu, { items: menuItems(categories) }, settings);
}
