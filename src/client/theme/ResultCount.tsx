/** WooCommerce's result-count line, worded as it words it. */
export function describeResultCount(total: number, page: number, perPage: number): string {
  if (total === 1) return 'Showing the single result';
  if (total <= perPage || total === 0) return `Showing all ${total} results`;
  const first = (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return `Showing ${first}–${last} of ${total} results`;
}

export function ResultCount({ total, page, perPage }: { total: number; page: number; perPage: number }) {
  return (
    <p className="woocommerce-result-count" role="status">
      {describeResultCount(total, page, perPage)}
    </p>
  );
}
