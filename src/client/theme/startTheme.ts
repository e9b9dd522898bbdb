import type { PageSettings } from '../../shared/settings/settingsSchema';
import { announceResultCount } from './announceResultCount';
import { enhanceDescriptionToggle } from './enhanceDescriptionToggle';
import { enhanceHashLinks } from './enhanceHashLinks';
import { enhanceNotices } from './enhanceNotices';
import { enhancePasswordFields } from './enhancePasswordFields';
import { stickyHeaderOffset } from './stickyHeaderOffset';
import { getViewportStore } from './viewportStore';

/**
 * The theme behaviours that enhance server-rendered markup on every page (the header, scroll-to-top and banners
 * are islands): header mode, hash-link scrolling, notices, result count, password toggles, description toggle.
 */
export function startTheme(document: Document, settings: PageSettings): void {
  const root = document.documentElement;
  const viewport = getViewportStore(settings.theme.breakpoint);
  // The header's mode drives its CSS; the inline script in the header set the first value before paint.
  let width = -1;
  const applyMode = () => {
    // The store also reports scrolling; only a width change can move the header.
    if (viewport.getState().width === width) return;
    width = viewport.getState().width;
    root.dataset.headerMode = viewport.getState().mode;
    // Native jumps (a URL with a hash, :target) leave room for the sticky header too.
    root.style.setProperty('--sticky-header-height', `${Math.ceil(stickyHeaderOffset(document))}px`);
  };
  viewport.subscribe(applyMode);
  applyMode();

  enhanceHashLinks(document);
  enhanceNotices(document);
  announceResultCount(document);
  enhancePasswordFields(document, settings.i18n);
  enhanceDescriptionToggle(document);
}
