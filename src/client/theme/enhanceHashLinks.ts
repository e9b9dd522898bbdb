import { stickyHeaderOffset } from './stickyHeaderOffset';

/** The element an in-page link points at, or null for links to other pages and unknown targets. */
function hashTarget(link: HTMLAnchorElement, document: Document): HTMLElement | null {
  const location = document.location;
  if (!link.hash || link.origin !== location.origin || link.pathname !== location.pathname) return null;
  if (link.search !== location.search) return null;
  const id = decodeURIComponent(link.hash.slice(1));
  return document.getElementById(id);
}

/**
 * in-page hash links scroll smoothly, allowing for the sticky header height. The target then takes
 * focus (without a second jump) so keyboard and screen-reader users continue from there, and the URL keeps the
 * hash. One delegated listener covers links rendered later too.
 */
export function enhanceHashLinks(document: Document): () => void {
  const view = document.defaultView;
  if (!view) return () => {};
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    const link = (event.target as Element | null)?.closest?.('a[href*="#"]');
    if (!(link instanceof view.HTMLAnchorElement)) return;
    const target = hashTarget(link, document);
    if (!target) return;
    event.preventDefault();
    const top = target.getBoundingClientRect().top + view.scrollY - stickyHeaderOffset(document);
    const reduced = view.matchMedia('(prefers-reduced-motion: reduce)').matches;
    view.scrollTo({ top: Math.max(0, top), behavior: reduced ? 'auto' : 'smooth' });
    if (view.location.hash !== link.hash) view.history.pushState(null, '', link.hash);
    if (!target.matches('a[href], button, input, select, textarea, [tabindex]')) target.tabIndex = -1;
    target.focus({ preventScroll: true });
  };
  document.addEventListener('click', onClick);
  return () => document.removeEventListener('click', onClick);
}
