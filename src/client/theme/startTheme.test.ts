// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseSettings, toPageSettings } from '../../shared/settings/parseSettings';
import { startTheme } from './startTheme';

/*
 * The theme on a page: the header's mode and the room left for the sticky header are written on the root element
 * for the CSS (and follow the window's width), and the enhancers are running on the page's markup.
 */

const happyDOM = () =>
  (window as unknown as { happyDOM: { setViewport(size: { width: number; height?: number }): void } })
    .happyDOM;

function stickyHeader(height: number) {
  const header = document.querySelector('.site-header') as HTMLElement;
  vi.spyOn(header, 'getBoundingClientRect').mockReturnValue({ height } as DOMRect);
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('startTheme', () => {
  it('writes the header mode and the sticky header’s height, and follows width changes but not scrolling', () => {
    happyDOM().setViewport({ width: 500, height: 800 });
    document.body.innerHTML =
      '<header class="site-header" style="position: sticky; top: 0"></header>' +
      '<input type="password" id="pw">' +
      '<a id="l" href="#t">T</a><div id="t"></div>';
    stickyHeader(56.2);
    const root = document.documentElement;
    startTheme(document, toPageSettings(parseSettings({ theme: { breakpoint: 768 } })));
    expect(root.dataset.headerMode).toBe('breakpoint');
    // Whole pixels, rounded up: a native jump never lands under the header.
    expect(root.style.getPropertyValue('--sticky-header-height')).toBe('57px');

    // The enhancers run on the page: the password field has its toggle, an in-page link is handled.
    expect(document.querySelector('#pw + button.show-password-input')).not.toBeNull();
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    document.getElementById('l')?.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);

    // Scrolling alone rewrites nothing, even when the header's height has changed meanwhile.
    stickyHeader(80);
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 400 });
    window.dispatchEvent(new Event('scroll'));
    vi.advanceTimersByTime(100);
    expect(root.style.getPropertyValue('--sticky-header-height')).toBe('57px');

    happyDOM().setViewport({ width: 1200, height: 800 });
    window.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(50);
    expect(root.dataset.headerMode).toBe('desktop');
    expect(root.style.getPropertyValue('--sticky-header-height')).toBe('80px');
  });
});
