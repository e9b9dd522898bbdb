/** the result count is re-announced after 2000 ms. */
const RESULT_COUNT_ANNOUNCE_MS = 2000;

/**
 * The result-count line is a polite live region; a region's first content is not announced by every screen
 * reader, so after 2000 ms (once the page has settled) its text is written again, which is announced.
 */
export function announceResultCount(document: Document): () => void {
  const view = document.defaultView;
  const region = document.querySelector<HTMLElement>('.woocommerce-result-count');
  if (!view || !region) return () => {};
  let rewrite: number | undefined;
  const timer = view.setTimeout(() => {
    const text = region.textContent ?? '';
    // The line keeps its box while empty, so nothing beside or below it moves (no layout shift).
    region.style.minWidth = `${region.offsetWidth}px`;
    region.style.minHeight = `${region.offsetHeight}px`;
    region.textContent = '';
    // Emptied and refilled in separate tasks, so the accessibility tree sees a change to announce.
    rewrite = view.setTimeout(() => {
      region.textContent = text;
      region.style.minWidth = '';
      region.style.minHeight = '';
      region.dataset.announced = 'true';
    }, 50);
  }, RESULT_COUNT_ANNOUNCE_MS);
  return () => {
    view.clearTimeout(timer);
    view.clearTimeout(rewrite);
  };
}
