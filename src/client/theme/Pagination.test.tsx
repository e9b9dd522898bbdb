import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Pagination } from './Pagination';

const pageUrl = (page: number) => `/shop/page/${page}/`;

describe('Pagination', () => {
  it('links the pages near the current one and at both ends, with a gap between, and the current one unlinked', () => {
    const html = renderToStaticMarkup(<Pagination page={250} pages={500} pageUrl={pageUrl} />);
    const links = [...html.matchAll(/aria-label="Page (\d+)"/g)].map((match) => Number(match[1]));
    expect(links).toEqual([1, 2, 3, 247, 248, 249, 251, 252, 253, 498, 499, 500]);
    expect(html).toContain('<span aria-current="page">250</span>');
    expect(html.match(/pagination__gap/g)).toHaveLength(2);
    expect(html).toContain('href="/shop/page/249/" rel="prev"');
    expect(html).toContain('href="/shop/page/251/" rel="next"');
  });

  it('renders nothing for a single page', () => {
    expect(renderToStaticMarkup(<Pagination page={1} pages={1} pageUrl={pageUrl} />)).toBe('');
  });
});
