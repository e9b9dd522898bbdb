// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { facetFormUrl, resultsAnnouncement } from './facetFormUrl';

describe('the filter form’s address', () => {
  it('is the form’s action with its chosen fields, as the browser would submit it', () => {
    document.body.innerHTML = `
      <form class="facet-filters" method="get" action="/product-category/apparel/">
        <input type="hidden" name="orderby" value="price">
        <input type="checkbox" name="filter_color" value="red" checked>
        <input type="checkbox" name="filter_color" value="blue" checked>
        <input type="checkbox" name="filter_color" value="green">
        <input type="radio" name="price_range" value="" >
        <input type="radio" name="price_range" value="2000-3999" checked>
      </form>`;
    const form = document.querySelector('form') as HTMLFormElement;
    expect(facetFormUrl(form)).toBe(
      `${location.origin}/product-category/apparel/?orderby=price&filter_color=red&filter_color=blue&price_range=2000-3999`,
    );
  });

  it('says how many products the results now hold', () => {
    expect(resultsAnnouncement(0)).toBe('No products found');
    expect(resultsAnnouncement(1)).toBe('1 product found');
    expect(resultsAnnouncement(12)).toBe('12 products found');
  });
});
