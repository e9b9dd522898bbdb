import { useSyncExternalStore } from 'react';
import { useShopSettings } from '../ShopSettingsContext';
import { isScrollToTopVisible } from './isScrollToTopVisible';
import { getViewportStore } from './viewportStore';

/**
 * The "Scroll to top" button: shown once the page is scrolled more than 300 px, on the devices
 * `theme.scrollToTop` names. The server renders it hidden; it needs JavaScript, like the scrolling it does.
 */
export default function ScrollToTop() {
  const { theme, i18n } = useShopSettings();
  const viewport = getViewportStore(theme.breakpoint);
  const visible = useSyncExternalStore(
    viewport.subscribe,
    () => {
      const { scrollY, width } = viewport.getState();
      return isScrollToTopVisible({
        scrollY,
        viewportWidth: width,
        breakpoint: theme.breakpoint,
        device: theme.scrollToTop,
      });
    },
    () => false,
  );

  const scrollToTop = () => {
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: 0, behavior: reduced ? 'auto' : 'smooth' });
    // The button hides at the top: hand focus to the start of the page rather than losing it to <body>.
    document.querySelector<HTMLElement>('.site-title')?.focus({ preventScroll: true });
  };

  return (
    <button type="button" className="scroll-to-top" hidden={!visible} onClick={scrollToTop}>
      <span aria-hidden="true" className="scroll-to-top__icon" />
      <span className="screen-reader-text">{i18n.scrollToTop}</span>
    </button>
  );
}
