import { type RefObject, useEffect, useState } from 'react';
import type { SearchStore } from './core/createSearchStore';
import type { SearchState } from './core/reduceSearch';
import { isSelectable, suggestionObjectId } from './core/suggestionTypes';
import { Html } from './Html';

/** the side panel matches the dropdown's height once the dropdown is taller than 340 px. */
const HEIGHT_MATCH_THRESHOLD = 340;

/**
 * The details panel beside the dropdown, loaded as its own chunk the first time
 * it is shown. It shows the active suggestion, or the first one, and asks the store for the details of the
 * visible suggestions (each id once).
 */
export default function DetailsPanel({
  store,
  state,
  dropdownRef,
  zIndex,
}: {
  store: SearchStore;
  state: SearchState;
  dropdownRef: RefObject<HTMLDivElement | null>;
  zIndex: number;
}) {
  const [dropdownHeight, setDropdownHeight] = useState(0);

  useEffect(() => {
    if (state.suggestions.length > 0) void store.requestDetails();
  }, [store, state.suggestions]);

  useEffect(() => {
    const dropdown = dropdownRef.current;
    if (!dropdown || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setDropdownHeight(dropdown.offsetHeight));
    observer.observe(dropdown);
    return () => observer.disconnect();
  }, [dropdownRef]);

  const active = state.suggestions[state.activeIndex];
  const shown =
    active && active.type !== 'more_products'
      ? active
      : state.suggestions.find((s) => isSelectable(s) && s.type !== 'more_products');
  const details = shown ? state.details[suggestionObjectId(shown)] : undefined;
  const loading = state.detailsLoading && !details;
  return (
    <section
      className={`shop-search__details${loading ? ' is-loading' : ''}`}
      aria-label="Product details"
      style={{ zIndex, minHeight: dropdownHeight > HEIGHT_MATCH_THRESHOLD ? dropdownHeight : undefined }}
    >
      {loading ? <span className="shop-search__preloader" aria-hidden="true" /> : null}
      {/* On a failed request the panel is cleared. */}
      {details && !state.detailsFailed ? (
        <Html html={details.html} as="div" className="shop-search__details-body" />
      ) : null}
    </section>
  );
}
