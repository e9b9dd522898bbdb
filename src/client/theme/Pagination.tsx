/** Numbered pages for an archive; `pageUrl` builds each page's address (/shop/page/2/ and friends). */
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
        {Array.from({ length: pages }, (_, index) => index + 1).map((number) => (
          <li key={number}>
            {number === page ? (
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
