import { stripTags } from './normalizeQuery';
import { isStoredSuggestion, type Suggestion } from './suggestionTypes';

export const RECENT_PRODUCTS_KEY = 'fibosearch_recently_viewed_products';
export const RECENT_PHRASES_KEY = 'fibosearch_recently_searched_phrases';
/** at most 5 products and 5 phrases. */
const HISTORY_LIMIT = 5;

/** Shown instead of a product's thumbnail when images are off. */
export const HISTORY_ICON_HTML =
  '<svg class="shop-search__history-icon" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18"><path fill="currentColor" d="M13 3a9 9 0 0 0-9 9H1l3.9 3.9L9 12H6a7 7 0 1 1 2.05 4.95l-1.41 1.41A9 9 0 1 0 13 3zm-1 5v5l4.25 2.52.77-1.28-3.52-2.09V8z"/></svg>';

/** The subset of Web Storage the history needs; tests pass a Map-backed fake. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface HistoryStore {
  products(): Suggestion[];
  phrases(): string[];
  addProduct(suggestion: Suggestion): void;
  addPhrase(phrase: string): void;
  clear(): void;
}

function readList<T>(
  storage: KeyValueStorage | null,
  key: string,
  isItem: (entry: unknown) => entry is T,
): T[] {
  try {
    const raw = storage?.getItem(key);
    if (!raw) return [];
    const parsed: unknown = JSON.parse(raw);
    // One bad entry (written by an older version or by hand) must not lose the rest.
    return Array.isArray(parsed) ? parsed.filter(isItem) : [];
  } catch {
    return [];
  }
}

const isString = (entry: unknown): entry is string => typeof entry === 'string';

function writeList(storage: KeyValueStorage | null, key: string, list: unknown[]): void {
  try {
    storage?.setItem(key, JSON.stringify(list));
  } catch {
    // Storage full or blocked (private mode): history is a convenience, never an error.
  }
}

/**
 * Recent products and phrases in local storage (docs/contract.md "Cookies and storage"): JSON arrays, newest first,
 * products de-duplicated by post_id, phrases case-insensitively, each capped at 5.
 */
export function createHistoryStore(
  storage: KeyValueStorage | null,
  options: { images: boolean },
): HistoryStore {
  return {
    products: () => readList(storage, RECENT_PRODUCTS_KEY, isStoredSuggestion).slice(0, HISTORY_LIMIT),
    phrases: () => readList(storage, RECENT_PHRASES_KEY, isString).slice(0, HISTORY_LIMIT),
    addProduct(suggestion) {
      const { price: _price, ...rest } = suggestion;
      const saved: Suggestion = options.images ? rest : { ...rest, thumb_html: HISTORY_ICON_HTML, image: '' };
      const others = readList(storage, RECENT_PRODUCTS_KEY, isStoredSuggestion).filter(
        (product) => product.post_id !== suggestion.post_id,
      );
      writeList(storage, RECENT_PRODUCTS_KEY, [saved, ...others].slice(0, HISTORY_LIMIT));
    },
    addPhrase(phrase) {
      const clean = stripTags(phrase);
      if (!clean) return;
      const others = readList(storage, RECENT_PHRASES_KEY, isString).filter(
        (existing) => existing.toLowerCase() !== clean.toLowerCase(),
      );
      writeList(storage, RECENT_PHRASES_KEY, [clean, ...others].slice(0, HISTORY_LIMIT));
    },
    clear() {
      try {
        storage?.removeItem(RECENT_PRODUCTS_KEY);
        storage?.removeItem(RECENT_PHRASES_KEY);
      } catch {
        // See writeList.
      }
    },
  };
}
