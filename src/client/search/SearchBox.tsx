import {
  type FocusEvent,
  type KeyboardEvent,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { MAX_SEARCH_LENGTH } from '../../shared/search/searchLimits';
import type { PageSettings } from '../../shared/settings/settingsSchema';
import { ShopSettingsContext, useShopSettings } from '../ShopSettingsContext';
import { createSearchStore, type SearchStore } from './core/createSearchStore';
import { isIOS } from './core/isIOS';
import { isHeadline, isSelectable, type Suggestion } from './core/suggestionTypes';
import { createBrowserSearchEnv } from './createBrowserSearchEnv';
import { DarkenedOverlay } from './DarkenedOverlay';
import { DidYouMeanNotice } from './DidYouMeanNotice';
import { Html } from './Html';
import { SearchMiniCart } from './SearchMiniCart';
import { SuggestionContent } from './SuggestionContent';
import type { SearchBoxProps } from './searchBoxProps';
import { registerLiveSearchBox, startSelfRepair } from './startSelfRepair';
import { useMediaQuery } from './useMediaQuery';
import { useSearchBox } from './useSearchBox';
import { VoiceSearchButton } from './VoiceSearchButton';
import './searchBox.css';

// Code-split to keep the first script small: the details panel loads only when it is first shown.
const DetailsPanel = lazy(() => import('./DetailsPanel'));

/** the details panel is hidden below 768 px. */
const DETAILS_MIN_VIEWPORT = 768;

type SearchSettings = PageSettings['search'];

function headlineLabel(suggestion: Suggestion, settings: SearchSettings): string {
  const labels: Record<string, string> = {
    product: settings.labels.productsHeading,
    products: settings.labels.productsHeading,
    product_cat: settings.labels.categoriesHeading,
    categories: settings.labels.categoriesHeading,
    product_tag: settings.labels.tagsHeading,
    tags: settings.labels.tagsHeading,
    [settings.brandsTaxonomy]: settings.labels.brandsHeading,
    brands: settings.labels.brandsHeading,
    vendor: settings.labels.vendorsHeading,
    vendors: settings.labels.vendorsHeading,
    post: settings.labels.postsHeading,
    posts: settings.labels.postsHeading,
    page: settings.labels.pagesHeading,
    pages: settings.labels.pagesHeading,
  };
  return labels[suggestion.value] ?? suggestion.value;
}

function statusText(store: SearchStore): string {
  const { isOpen, mode, suggestions, status } = store.getState();
  if (!isOpen || status !== 'ready') return '';
  const count = suggestions.filter((s) => isSelectable(s) && s.type !== 'more_products').length;
  if (mode === 'history') return `${count} recent ${count === 1 ? 'search' : 'searches'}.`;
  if (count === 0) return 'No results.';
  // The box's own status always exists, so a correction arriving with the answer is announced here for sure.
  const corrected = suggestions.find((s) => s.type === 'did-you-mean');
  const prefix = corrected ? `Showing results for ${corrected.value}. ` : '';
  return `${prefix}${count} ${count === 1 ? 'result' : 'results'} available. Use the up and down arrows to choose.`;
}

/**
 * The search-as-you-type box: a self-contained island that can be
 * placed anywhere, several per page, each with its own store. Without JavaScript it is a plain GET form to the
 * results page.
 */
export default function SearchBox({ initialQuery = '' }: SearchBoxProps) {
  const shopSettings = useShopSettings();
  const settings = shopSettings.search;
  const rootRef = useRef<HTMLDivElement | null>(null);
  const iconRef = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const dropdownRef = useRef<HTMLDivElement>(null);
  const [store] = useState(() => {
    const created: SearchStore = createSearchStore(
      createBrowserSearchEnv({
        analytics: settings.analytics,
        submitForm() {
          const input = inputRef.current;
          // The store changed the value just now; the DOM must carry it before the form is read.
          if (input) input.value = created.getState().value;
          formRef.current?.requestSubmit();
        },
      }),
      settings,
      initialQuery,
    );
    return created;
  });
  const [overlayOpen, setOverlayOpen] = useState(false);
  const [iconOpen, setIconOpen] = useState(false);
  const [formWidth, setFormWidth] = useState(0);
  const isWideViewport = useMediaQuery(`(min-width: ${DETAILS_MIN_VIEWPORT}px)`);
  const isTouch = useMediaQuery('(hover: none) and (pointer: coarse)');
  const isMobile = useMediaQuery(
    settings.mobileOverlay ? `(max-width: ${settings.mobileOverlayBreakpoint - 0.02}px)` : null,
  );
  const isNarrow = useMediaQuery(`(max-width: ${settings.layoutBreakpoint - 0.02}px)`);
  const iconLayout =
    settings.layout === 'icon' ||
    (settings.layout === 'icon-flexible' && isNarrow) ||
    (settings.layout === 'icon-flexible-inv' && !isNarrow);

  function closeOverlay() {
    setOverlayOpen(false);
    store.close();
  }

  const box = useSearchBox(store);
  const { state } = box;

  /**
   * Escape from anywhere in the box (input, dropdown, Close button, voice and submit) closes the mobile overlay
   * or folds the icon layout; the input's own Escape has already closed the dropdown in the store.
   */
  function onRootKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'Escape' || event.nativeEvent.isComposing) return;
    if (event.target !== inputRef.current && state.isOpen) store.close();
    if (overlayOpen) {
      closeOverlay();
    } else if (iconLayout && iconOpen) {
      setIconOpen(false);
      // The focused control is about to be hidden: focus goes back to the icon that opened it.
      iconRef.current?.focus();
    }
  }

  /**
   * Focus leaving the whole box closes the dropdown (and with it the darkened overlay), from whichever of its
   * controls it leaves; moving between the box's own controls is not leaving. On iOS the mobile overlay stays
   * open, since the keyboard's Done button blurs the input.
   */
  function onRootBlur(event: FocusEvent<HTMLDivElement>) {
    if (rootRef.current?.contains(event.relatedTarget as Node | null)) return;
    store.blurred({ keepOpen: overlayOpen && isIOS(navigator) });
  }

  const setRoot = useCallback((element: HTMLDivElement | null) => {
    rootRef.current = element;
    if (!element) return;
    // The self-repair helper tells a live box from a dead copy of one by this registration.
    const unregister = registerLiveSearchBox(element);
    return () => {
      unregister();
      rootRef.current = null;
    };
  }, []);

  // Hydration keeps what the shopper typed before the box came alive (React leaves the DOM's value), so the store
  // takes it and the focus over: otherwise Enter would submit the store's empty value and nothing would happen.
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    if (document.activeElement === input) store.focused();
    if (input.value !== store.getState().value) store.inputChanged(input.value);
  }, [store]);

  // The helper lives with the page, not with this box: its stop function is deliberately not returned.
  useEffect(() => {
    startSelfRepair(mountSearchBox);
  }, []);

  // The active option stays in view while the arrows move through a list taller than the dropdown.
  useEffect(() => {
    if (state.activeIndex < 0) return;
    document.getElementById(box.ids.option(state.activeIndex))?.scrollIntoView({ block: 'nearest' });
  }, [state.activeIndex, box.ids]);
  useEffect(() => () => store.destroy(), [store]);

  // A click outside the form, dropdown and panel hides the dropdown (they all live inside the root).
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      if (rootRef.current?.contains(event.target as Node)) return;
      store.clickedOutside();
    };
    const onPointerUp = () => store.pointerDownInside(false);
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('pointerup', onPointerUp);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('pointerup', onPointerUp);
    };
  }, [store]);

  // Full-width details mode depends on the form's own width.
  useEffect(() => {
    const form = formRef.current;
    if (!form || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setFormWidth(entry?.contentRect.width ?? 0));
    observer.observe(form);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!isMobile && overlayOpen) setOverlayOpen(false);
  }, [isMobile, overlayOpen]);

  /** Opens the overlay and focuses its input within the same tap, so iOS opens the keyboard at once. */
  function openOverlay() {
    flushSync(() => setOverlayOpen(true));
    inputRef.current?.focus();
  }

  function openIcon() {
    if (isMobile) {
      flushSync(() => setIconOpen(true));
      openOverlay();
      return;
    }
    flushSync(() => setIconOpen(!iconOpen));
    if (!iconOpen) inputRef.current?.focus();
  }

  const hasResults = state.suggestions.some((s) => isSelectable(s) && s.type !== 'more_products');
  const showDetails =
    settings.show.detailsPanel &&
    isWideViewport &&
    !isTouch &&
    !overlayOpen &&
    state.isOpen &&
    state.mode === 'suggestions' &&
    hasResults;
  const fullWidth = formWidth >= settings.detailsPanelBreakpoint;
  const onlyNoResults =
    state.suggestions.length > 0 && state.suggestions.every((s) => s.type === 'no-results');
  const didYouMean =
    state.mode === 'suggestions' ? state.suggestions.find((s) => s.type === 'did-you-mean') : undefined;
  const formHidden = iconLayout && !iconOpen && !overlayOpen;
  const rootClass = [
    'shop-search',
    `shop-search--${iconLayout ? 'icon' : 'classic'}`,
    state.isOpen ? 'is-open' : '',
    overlayOpen ? 'is-overlay' : '',
    showDetails ? `has-details ${fullWidth ? 'has-details--full' : 'has-details--side'}` : '',
  ]
    .filter(Boolean)
    .join(' ');

  const suggestionsView = state.suggestions.map((suggestion, index) => {
    if (isHeadline(suggestion)) {
      if (!settings.show.headings) return null;
      return (
        // biome-ignore lint/suspicious/noArrayIndexKey: a headline has no id; its position in the answer is its identity
        <li key={`h${index}`} role="presentation" className="shop-search__headline">
          {headlineLabel(suggestion, settings)}
        </li>
      );
    }
    if (suggestion.type === 'no-results' || suggestion.type === 'did-you-mean') return null;
    // History products show no price, not even a dynamic one.
    const price =
      state.mode === 'history'
        ? undefined
        : suggestion.post_id !== undefined
          ? (state.prices[String(suggestion.post_id)] ?? suggestion.price)
          : suggestion.price;
    return (
      <li
        // biome-ignore lint/suspicious/noArrayIndexKey: the same product may appear twice (product and variation); position disambiguates
        key={index}
        {...box.getOptionProps(index)}
        className={`shop-search__option shop-search__option--${suggestion.type}${state.activeIndex === index ? ' is-active' : ''}`}
      >
        <SuggestionContent
          suggestion={suggestion}
          query={state.resultsQuery}
          settings={settings}
          price={price}
          inHistory={state.mode === 'history'}
        />
      </li>
    );
  });

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape and focus leaving bubble up from the box's own controls
    <div
      ref={setRoot}
      className={rootClass}
      dir={settings.rtl ? 'rtl' : undefined}
      style={settings.width === 'auto' ? undefined : { width: settings.width }}
      onPointerDown={() => store.pointerDownInside(true)}
      onKeyDown={onRootKeyDown}
      onBlur={onRootBlur}
    >
      {iconLayout ? (
        <button
          ref={iconRef}
          type="button"
          className="shop-search__icon"
          aria-label="Search"
          aria-expanded={iconOpen || overlayOpen}
          aria-controls={box.ids.input}
          onClick={openIcon}
        >
          <Html html={settings.icons.magnifier} className="shop-search__icon-image" />
        </button>
      ) : null}
      <div
        className="shop-search__panel"
        hidden={formHidden}
        {...(overlayOpen ? { role: 'dialog', 'aria-modal': true, 'aria-label': 'Search' } : {})}
      >
        {overlayOpen ? (
          <button type="button" className="shop-search__back" onClick={closeOverlay}>
            <Html html={settings.icons.back} className="shop-search__back-icon" /> Close search
          </button>
        ) : null}
        <search className="shop-search__search">
          <form
            ref={formRef}
            method="get"
            action="/"
            className="shop-search__form search-form"
            {...box.getFormProps()}
          >
            <label htmlFor={box.ids.input} className="screen-reader-text">
              Search products
            </label>
            <span className="shop-search__field">
              <input
                ref={inputRef}
                className="shop-search__input"
                placeholder={settings.labels.placeholder}
                maxLength={MAX_SEARCH_LENGTH}
                {...box.getInputProps({
                  onPointerDown: () => {
                    if (isMobile && !overlayOpen) openOverlay();
                  },
                  onFocus: () => {
                    if (isMobile && !overlayOpen) openOverlay();
                  },
                })}
              />
              {box.hint && state.value.toLowerCase() === state.query.toLowerCase() ? (
                <span className="shop-search__hint" aria-hidden="true">
                  <span className="shop-search__hint-typed">{state.value}</span>
                  {box.hint.slice(state.query.length)}
                </span>
              ) : null}
            </span>
            <input type="hidden" name="post_type" value="product" />
            {settings.voiceSearch.enabled ? (
              <VoiceSearchButton
                lang={settings.voiceSearch.lang}
                icon={settings.icons.voice}
                onTranscript={(transcript) => {
                  store.inputChanged(transcript);
                  inputRef.current?.focus();
                }}
              />
            ) : null}
            <button type="submit" className="shop-search__submit">
              {settings.labels.submit}
            </button>
          </form>
        </search>
        <div className="shop-search__results">
          <div
            ref={dropdownRef}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling list must be scrollable from the keyboard (axe scrollable-region-focusable); choosing still happens from the input (aria-activedescendant)
            tabIndex={0}
            className="shop-search__dropdown"
            hidden={!state.isOpen}
            style={{ maxHeight: overlayOpen ? undefined : settings.maxHeight, zIndex: settings.zIndex }}
          >
            {state.mode === 'history' && state.isOpen ? (
              <div className="shop-search__history-heading">
                <span>{settings.labels.historyHeading}</span>
                <button
                  type="button"
                  className="shop-search__history-clear"
                  onClick={() => store.clearHistory()}
                >
                  {settings.labels.historyClear}
                </button>
              </div>
            ) : null}
            {didYouMean?.url && didYouMean.original ? (
              // A polite live region of its own, updated as the correction changes while typing; its first
              // appearance is also announced by the box's status below (a region is heard once it exists).
              <div className="shop-search__did-you-mean" role="status" aria-live="polite">
                <DidYouMeanNotice
                  correction={didYouMean.value}
                  original={didYouMean.original}
                  url={didYouMean.url}
                  className="shop-search__did-you-mean"
                />
              </div>
            ) : null}
            <ul
              {...box.getListboxProps({ 'aria-label': 'Search suggestions' })}
              className="shop-search__listbox"
              hidden={!state.isOpen || onlyNoResults}
            >
              {suggestionsView}
            </ul>
            {state.isOpen && onlyNoResults ? (
              <Html html={settings.labels.noResults} as="div" className="shop-search__no-results" />
            ) : null}
          </div>
          {showDetails ? (
            <Suspense fallback={null}>
              <DetailsPanel store={store} state={state} dropdownRef={dropdownRef} zIndex={settings.zIndex} />
            </Suspense>
          ) : null}
        </div>
        <div id={box.ids.status} className="screen-reader-text" role="status" aria-live="polite">
          {statusText(store)}
        </div>
      </div>
      {settings.darkenedOverlay ? (
        <DarkenedOverlay
          open={state.isOpen && !overlayOpen}
          targetRef={formRef}
          zIndex={settings.zIndex - 1}
          onClose={() => store.close()}
        />
      ) : null}
      {settings.miniCart.enabled ? (
        <SearchMiniCart
          hideIfEmpty={settings.miniCart.hideIfEmpty ?? shopSettings.cart.hideIfEmpty}
          cartUrl={shopSettings.cart.cartUrl}
        />
      ) : null}
    </div>
  );
}

/** Mounts a box the self-repair helper found in markup added after load (not hydrated by entry.tsx). */
async function mountSearchBox(container: HTMLElement, props: SearchBoxProps, settings: PageSettings) {
  createRoot(container).render(
    <ShopSettingsContext value={settings}>
      <SearchBox {...props} />
    </ShopSettingsContext>,
  );
}
