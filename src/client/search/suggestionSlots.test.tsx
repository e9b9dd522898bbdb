// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSettings } from '../../shared/settings/parseSettings';
import type { Suggestion } from './core/suggestionTypes';
import { SuggestionContent } from './SuggestionContent';

/*
 * The markup a server-side decorator put in a product suggestion's slots is shown as markup, each slot in its
 * place: meta_before above the title, title_before/title_after around it, meta_after and content_after below.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

describe('suggestion slots in the search box', () => {
  it('shows each slot’s markup in its place around a product’s title', () => {
    const suggestion: Suggestion = {
      type: 'product',
      post_id: 1200,
      value: 'Lined Pullover Hoodie',
      url: '/product/lined-pullover-hoodie/',
      meta_before: '<b class="slot-meta-before">Fern &amp; Flax</b>',
      title_before: '<i class="slot-title-before">★</i>',
      title_after: '<i class="slot-title-after">Staff pick</i>',
      meta_after: '<small class="slot-meta-after">made to last</small>',
      content_after: '<a class="slot-content-after" href="/staff-picks/">More picks</a>',
    };
    const container = document.createElement('div');
    document.body.append(container);
    act(() => {
      root = createRoot(container);
      root.render(
        <SuggestionContent
          suggestion={suggestion}
          query=""
          settings={parseSettings({}).search}
          price={undefined}
          inHistory={false}
        />,
      );
    });
    const title = container.querySelector('.shop-search__title');
    expect(title?.querySelector('.slot-title-before')?.textContent).toBe('★');
    expect(title?.querySelector('.slot-title-after')?.textContent).toBe('Staff pick');
    expect(title?.textContent).toBe('★Lined Pullover HoodieStaff pick');
    expect(container.querySelector('.slot-meta-before')?.textContent).toBe('Fern & Flax');
    expect(container.querySelector('.slot-content-after')?.getAttribute('href')).toBe('/staff-picks/');
    // Document order: meta_before, the title, meta_after, content_after.
    const order = [...container.querySelectorAll('[class^="slot-"], .shop-search__title')].map(
      (element) => element.className,
    );
    expect(order).toEqual([
      'slot-meta-before',
      'shop-search__title',
      'slot-title-before',
      'slot-title-after',
      'slot-meta-after',
      'slot-content-after',
    ]);
  });
});
