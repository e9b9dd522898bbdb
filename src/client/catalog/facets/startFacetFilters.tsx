import { type ComponentType, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { PageSettings } from '../../../shared/settings/settingsSchema';
import { type IslandName, islandLoaders } from '../../islands';
import { ShopSettingsContext } from '../../ShopSettingsContext';
import { facetFormUrl, resultsAnnouncement } from './facetFormUrl';

/** Below this width the filters start closed: the results come first on a phone. */
const PHONE_QUERY = '(max-width: 767px)';

/**
 * Enhances the listing's filter form (FacetFilters): a change asks the server for the page at the form's address,
 * then swaps in the new counts and results without a reload, puts the canonical address in the history (so the
 * back button steps through the choices), keeps focus on the control the shopper used, and announces the new number
 * of products in the form's live region. Any failure falls back to a plain navigation, which works without us.
 */
export function startFacetFilters(document: Document, settings: PageSettings | null): void {
  const view = document.defaultView;
  const panel = document.querySelector<HTMLDetailsElement>('[data-facet-panel]');
  const form = panel?.querySelector<HTMLFormElement>('form.facet-filters');
  if (!view || !panel || !form) return;
  if (view.matchMedia(PHONE_QUERY).matches) panel.open = false;
  let controller: AbortController | null = null;

  async function show(url: string, options: { push: boolean; focusId?: string }) {
    controller?.abort();
    const mine = new AbortController();
    controller = mine;
    const layout = document.querySelector<HTMLElement>('.archive-layout');
    layout?.setAttribute('data-facet-busy', '');
    try {
      const response = await view?.fetch(url, { headers: { accept: 'text/html' }, signal: mine.signal });
      if (!response?.ok) throw new Error(`HTTP ${response?.status}`);
      const next = new DOMParser().parseFromString(await response.text(), 'text/html');
      if (mine.signal.aborted) return;
      const fields = document.querySelector('[data-facet-fields]');
      const results = document.getElementById('archive-results');
      const newFields = next.querySelector('[data-facet-fields]');
      const newResults = next.getElementById('archive-results');
      if (!fields || !results || !newFields || !newResults) throw new Error('not a listing');
      fields.replaceWith(document.importNode(newFields, true));
      results.replaceChildren(
        ...Array.from(newResults.childNodes, (node) => document.importNode(node, true)),
      );
      results.dataset.total = newResults.dataset.total;
      const summary = panel?.querySelector('summary');
      const newSummary = next.querySelector('[data-facet-panel] summary');
      if (summary && newSummary) summary.innerHTML = newSummary.innerHTML;
      document.title = next.title;
      if (options.push) view?.history.pushState({ facets: true }, '', response.url);
      void hydrateIslandsIn(results, settings);
      const focusTarget = options.focusId ? document.getElementById(options.focusId) : null;
      if (focusTarget) focusTarget.focus();
      else if (options.push) results.focus();
      announce(resultsAnnouncement(Number(newResults.dataset.total ?? 0)));
    } catch (error) {
      if (mine.signal.aborted) return;
      // The plain page always works: go there.
      view?.location.assign(url);
      void error;
    } finally {
      if (controller === mine) layout?.removeAttribute('data-facet-busy');
    }
  }

  function announce(text: string) {
    const status = form?.querySelector<HTMLElement>('[data-facet-status]');
    if (!status) return;
    // Emptied first, so the same text said twice is still a change to announce.
    status.textContent = '';
    view?.setTimeout(() => {
      status.textContent = text;
    }, 50);
  }

  form.addEventListener('change', (event) => {
    const target = event.target as HTMLInputElement | null;
    void show(facetFormUrl(form), { push: true, focusId: target?.id });
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void show(facetFormUrl(form), { push: true });
  });
  form.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a.facet-clear');
    if (!link) return;
    event.preventDefault();
    void show(link.href, { push: true });
  });
  view.addEventListener('popstate', () => {
    void show(view.location.href, { push: false });
  });
}

/** The islands inside swapped-in results (the ordering select, card swatches), hydrated as entry.tsx does. */
async function hydrateIslandsIn(root: Element, settings: PageSettings | null): Promise<void> {
  await Promise.all(
    Array.from(root.querySelectorAll<HTMLElement>('[data-island]'), async (container) => {
      const load = islandLoaders[container.dataset.island as IslandName];
      if (!load) return;
      const module = (await load()) as { default: ComponentType<object> };
      const Component = module.default;
      hydrateRoot(
        container,
        <StrictMode>
          <ShopSettingsContext value={settings}>
            <Component {...(JSON.parse(container.dataset.props ?? '{}') as object)} />
          </ShopSettingsContext>
        </StrictMode>,
      );
    }),
  );
}
