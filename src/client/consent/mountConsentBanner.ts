import type { Consent } from './createConsent';
import './consentBanner.css';

interface BannerText {
  message: string;
  accept: string;
  decline: string;
}

const DEFAULT_TEXT: BannerText = {
  message: 'We use cookies to learn where our visitors come from and which pages they read.',
  accept: 'Accept',
  decline: 'Decline',
};

/**
 * Our own cookie banner (consent.mode `banner`): a labelled region with two buttons, shown until the visitor
 * chooses. Built without React: it appears on every page, and no island should be hydrated only for it.
 */
export function mountConsentBanner(document: Document, consent: Consent, text: BannerText = DEFAULT_TEXT) {
  if (!consent.needsChoice()) return;
  const banner = document.createElement('section');
  banner.className = 'consent-banner';
  banner.setAttribute('aria-label', 'Cookie consent');
  const message = document.createElement('p');
  message.textContent = text.message;
  const actions = document.createElement('div');
  actions.className = 'consent-banner__actions';
  for (const [label, allow] of [
    [text.accept, true],
    [text.decline, false],
  ] as const) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = allow ? 'button button--primary' : 'button';
    button.textContent = label;
    button.addEventListener('click', () => {
      banner.remove();
      consent.choose(allow);
    });
    actions.append(button);
  }
  banner.append(message, actions);
  document.body.append(banner);
}
