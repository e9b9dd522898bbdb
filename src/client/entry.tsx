import { type ComponentType, type ReactNode, StrictMode, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { PageSettings } from '../shared/settings/settingsSchema';
import { startCart } from './cart/startCart';
import { fillFormNonces } from './forms/fillFormNonces';
import { type IslandName, islandLoaders } from './islands';
import { ShopSettingsContext } from './ShopSettingsContext';
import { startTracking } from './tracking/startTracking';
import './styles/shop.css';
import './theme/theme.css';
import './insights/insights.css';
import './admin/admin.css';
import './admin/products/adminProducts.css';
import './admin/webhooks.css';

function readSettings(): PageSettings | null {
  const script = document.getElementById('shop-settings');
  if (!script?.textContent) return null;
  return JSON.parse(script.textContent) as PageSettings;
}

/**
 * Reports once its island has committed. `hydrateRoot` only schedules the hydration, so an island counts as
 * live when its first effect runs: a key pressed after that reaches the island's own handlers.
 */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(onCommit, [onCommit]);
  return children;
}

/** Hydrates the islands the server rendered on this page, loading each island's chunk only when present. */
async function hydrateIslands(settings: PageSettings | null) {
  const containers = document.querySelectorAll<HTMLElement>('[data-island]');
  await Promise.all(
    Array.from(containers, async (container) => {
      const name = container.dataset.island as IslandName;
      const load = islandLoaders[name];
      if (!load) return;
      const module = (await load()) as { default: ComponentType<object> };
      const props = JSON.parse(container.dataset.props ?? '{}') as object;
      const Component = module.default;
      await new Promise<void>((committed) => {
        hydrateRoot(
          container,
          <StrictMode>
            <ShopSettingsContext value={settings}>
              <Committed onCommit={committed}>
                <Component {...props} />
              </Committed>
            </ShopSettingsContext>
          </StrictMode>,
        );
      });
    }),
  );
}

/** Theme behaviours that enhance server-rendered markup on every page (menus, hash links, notices…). */
async function startThemeBehaviour(settings: PageSettings | null) {
  if (!settings) return;
  const { startTheme } = await import('./theme/startTheme');
  startTheme(document, settings);
}

/** The listing's filters, enhanced to update in place (their own chunk, only on listings that have them). */
async function startFilters(settings: PageSettings | null) {
  if (!document.querySelector('form.facet-filters')) return;
  const { startFacetFilters } = await import('./catalog/facets/startFacetFilters');
  startFacetFilters(document, settings);
}

const settings = readSettings();
startTracking(settings);
if (settings) startCart(settings);
fillFormNonces(document, window.fetch.bind(window));
// `html[data-hydrated]` tells tests and integrators that every island and enhancement is live.
void Promise.all([hydrateIslands(settings), startThemeBehaviour(settings), startFilters(settings)]).then(
  () => {
    document.documentElement.dataset.hydrated = 'true';
  },
);
