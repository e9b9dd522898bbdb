/** The address the filter form would go to if submitted now (the server answers with the canonical one). */
export function facetFormUrl(form: HTMLFormElement): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string') params.append(name, value);
  }
  const query = params.toString();
  return `${form.action.split('?')[0]}${query ? `?${query}` : ''}`;
}

/** What the live region says after the results change. */
export function resultsAnnouncement(total: number): string {
  if (total === 0) return 'No products found';
  return total === 1 ? '1 product found' : `${total} products found`;
}
