import { pageNumbers } from './pageNumbers';

/**
 * Numbered pages for an archive, the far ones folded into gaps (pageNumbers.ts); `pageUrl` builds each page's
 * address (/shop/page/2/ and friends).
 */
export function Pagination({
  page,
  pages,
  pageUrl,
}: {
  page: number;
  pages: number;
  pageUrl: (page: number) => string;
}) {
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label="Product pages">
      <ul>
        {page > 1 && (
          <li>
            <a href={pageUrl(page - 1)} rel="prev">
              ← Previous
            </a>
          </li>
        )}
        {pageNumbers(page, pages).map((number, index) => (
          <li key={number === 'gap' ? `gap-${index}` : number}>
            {number === 'gap' ? (
              <span className="pagination__gap">…</span>
            ) : number === page ? (
              <span aria-current="page">{number}</span>
            ) : (
              <a href={pageUrl(number)} aria-label={`Page ${number}`}>
                {number}
              </a>
            )}
          </li>
        ))}
        {page < pages && (
          <li>
            <a href={pageUrl(page + 1)} rel="next">
              Next →
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}
