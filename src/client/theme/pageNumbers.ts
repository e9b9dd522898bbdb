/**
 * The page numbers an archive's pagination shows, as WooCommerce's shop pagination does (WordPress's
 * paginate_links with three pages at each end and three on each side of the current one): the rest are folded into
 * a gap. Listing every number put 4,000 links on each page of a 50,000-product shop.
 */
export type PageNumber = number | 'gap';

export const END_PAGES = 3;
export const AROUND_CURRENT = 3;

export function pageNumbers(page: number, pages: number): PageNumber[] {
  const shown: PageNumber[] = [];
  for (let number = 1; number <= pages; number++) {
    const atAnEnd = number <= END_PAGES || number > pages - END_PAGES;
    const nearCurrent = Math.abs(number - page) <= AROUND_CURRENT;
    if (atAnEnd || nearCurrent) shown.push(number);
    else if (shown.at(-1) !== 'gap') shown.push('gap');
  }
  return shown;
}
