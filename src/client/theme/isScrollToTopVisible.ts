import type { PageSettings } from '../../shared/settings/settingsSchema';
import { headerMode } from './headerMode';

/** the button shows once the page is scrolled more than this. */
const SCROLL_TO_TOP_THRESHOLD = 300;

interface ScrollToTopInput {
  scrollY: number;
  viewportWidth: number;
  breakpoint: number;
  device: PageSettings['theme']['scrollToTop'];
}

/** Whether the "Scroll to top" button shows: past 300 px, and only on the devices the setting names. */
export function isScrollToTopVisible({
  scrollY,
  viewportWidth,
  breakpoint,
  device,
}: ScrollToTopInput): boolean {
  if (scrollY <= SCROLL_TO_TOP_THRESHOLD) return false;
  if (device === 'both') return true;
  if (device === 'off') return false;
  const mobile = headerMode(viewportWidth, breakpoint) === 'breakpoint';
  return device === 'mobile' ? mobile : !mobile;
}
