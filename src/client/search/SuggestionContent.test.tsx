// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSettings } from '../../shared/settings/parseSettings';
import { createHistoryStore } from './core/createHistoryStore';
import type { Suggestion } from './core/suggestionTypes';
import { SuggestionContent } from './SuggestionContent';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;

function render(suggestion: Suggestion, search: object, inHistory: boolean) {
  const settings = parseSettings({ search }).search;
  const container = document.createElement('div');
  document.body.append(container);
  act(() => {
    root = createRoot(container);
    root.render(
      <SuggestionContent
        suggestion={suggestion}
        query=""
        settings={settings}
        price={undefined}
        inHistory={inHistory}
      />,
    );
  });
  return container;
}

afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

const MUG: Suggestion = {
  type: 'product',
  post_id: 1003,
  value: 'Café au Lait Mug',
  url: '/product/cafe-au-lait-mug/',
  image: '/mug.jpg',
};

/** A recent product as the history store keeps it when images are off. */
function savedWithImagesOff(): Suggestion {
  const storage = new Map<string, string>();
  const history = createHistoryStore(
    {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
    },
    { images: false },
  );
  history.addProduct(MUG);
  return history.products()[0] as Suggestion;
}

describe('SuggestionContent', () => {
  it('shows the history icon in place of a recent product picture when images are off', () => {
    const view = render(savedWithImagesOff(), { show: { images: false } }, true);
    expect(view.querySelector('.shop-search__thumb--icon svg')).not.toBeNull();
    expect(view.querySelector('img')).toBeNull();
  });

  it('shows the configured history icon (search.icons.history)', () => {
    const view = render(
      savedWithImagesOff(),
      { show: { images: false }, icons: { history: '<i class="my-clock"></i>' } },
      true,
    );
    expect(view.querySelector('.shop-search__thumb--icon .my-clock')).not.toBeNull();
  });

  it('shows no picture and no icon for a live suggestion when images are off', () => {
    const view = render(MUG, { show: { images: false } }, false);
    expect(view.querySelector('.shop-search__thumb')).toBeNull();
  });
});

describe('the "see all products" line', () => {
  const more = (extra: Partial<Suggestion>): Suggestion => ({
    type: 'more_products',
    value: 'linen',
    url: '/?s=linen&post_type=product',
    ...extra,
  });

  it('shows the total, with a plus when the server counted only a lower bound', () => {
    expect(render(more({ total: 42 }), {}, false).textContent).toBe('See all products... (42)');
    act(() => root?.unmount());
    expect(render(more({ total: 800, total_is_lower_bound: true }), {}, false).textContent).toBe(
      'See all products... (800+)',
    );
  });
});
