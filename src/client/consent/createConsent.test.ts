// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConsent } from './createConsent';
import { mountConsentBanner } from './mountConsentBanner';

afterEach(() => {
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: clearing the test document's cookies between tests
    if (name) document.cookie = `${name}=; max-age=0; path=/`;
  }
  document.body.innerHTML = '';
  delete window.wp_has_consent;
});

describe('createConsent', () => {
  it('allows everything in mode none', () => {
    expect(createConsent({ mode: 'none', window, document }).has('marketing')).toBe(true);
  });

  it('asks the consent API per category and tells subscribers when consent changes', () => {
    const consent = createConsent({ mode: 'api', window, document });
    expect(consent.has('statistics')).toBe(false);
    window.wp_has_consent = (category) => category === 'statistics';
    const listener = vi.fn();
    consent.subscribe(listener);
    document.dispatchEvent(
      new CustomEvent('wp_listen_for_consent_change', { detail: { statistics: 'allow' } }),
    );
    expect(listener).toHaveBeenCalledOnce();
    expect(consent.has('statistics')).toBe(true);
    expect(consent.has('marketing')).toBe(false);
  });

  it('shows the banner until the visitor chooses, and keeps the choice in a cookie', () => {
    const consent = createConsent({ mode: 'banner', window, document });
    const listener = vi.fn();
    consent.subscribe(listener);
    mountConsentBanner(document, consent);
    const banner = document.querySelector('section[aria-label="Cookie consent"]');
    expect(banner).not.toBeNull();
    expect(consent.has('statistics')).toBe(false);

    const accept = [...document.querySelectorAll('button')].find((button) => button.textContent === 'Accept');
    accept?.click();
    expect(listener).toHaveBeenCalledOnce();
    expect(document.cookie).toContain('shop_cookie_consent=allow');
    expect(consent.has('marketing')).toBe(true);
    expect(document.querySelector('.consent-banner')).toBeNull();

    // A later page: the choice is remembered, so no banner.
    mountConsentBanner(document, createConsent({ mode: 'banner', window, document }));
    expect(document.querySelector('.consent-banner')).toBeNull();
  });

  it('declining keeps tracking off', () => {
    const consent = createConsent({ mode: 'banner', window, document });
    mountConsentBanner(document, consent);
    [...document.querySelectorAll('button')].find((button) => button.textContent === 'Decline')?.click();
    expect(consent.has('statistics')).toBe(false);
    expect(consent.needsChoice()).toBe(false);
  });
});
