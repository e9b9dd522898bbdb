import { hostOf } from '../../shared/attribution/parseUri';
import type { CookieAccess } from './createAttributionTracker';

/*
 * `document.cookie` as the tracker needs it, written the way WooCommerce's sourcebuster writes its cookies:
 * `domain=.{host}` (the configured cookie domain, else the page's host without `www.`), path `/`. A shop moving
 * from WooCommerce then overwrites its visitors' cookies instead of adding host-only copies next to them: with two
 * cookies of one name, the browser lists the older first, and the visitor's new campaigns would be hidden behind it.
 *
 * Hosts that cannot carry a domain cookie (an IP address, `localhost`, any name without a dot) get host-only
 * cookies; browsers refuse a domain attribute there, and the library's cookies would never be set at all.
 */

const EXPIRED = 'Thu, 01 Jan 1970 00:00:00 GMT';

interface CookiePlacement {
  /** The page's `location.hostname`. */
  hostname: string;
  /** `attribution.cookieDomain`: share the cookies with every subdomain of it. */
  cookieDomain: string | null;
}

/** The domain attribute our cookies carry, or null for host-only cookies. */
function cookieDomainFor({ hostname, cookieDomain }: CookiePlacement): string | null {
  if (cookieDomain) return cookieDomain.replace(/^\./, '');
  const host = hostOf(hostname);
  const isAddress = /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[');
  return isAddress || !host.includes('.') ? null : host;
}

export function documentCookies(
  document: Pick<Document, 'cookie'>,
  placement: CookiePlacement,
): CookieAccess {
  const domain = cookieDomainFor(placement);
  const attributes = (at: string | null) => `; path=/${at ? `; domain=.${at}` : ''}; SameSite=Lax`;
  // Every place a copy of one of our cookies may live: host-only, ours, and WooCommerce's (host without `www.`).
  const places = [
    ...new Set<string | null>([
      null,
      domain,
      cookieDomainFor({ ...placement, cookieDomain: null }),
      placement.hostname,
    ]),
  ];
  const erase = (name: string, at: string | null) => {
    document.cookie = `${name}=; expires=${EXPIRED}${attributes(at)}`;
  };
  /** Names seen more than once on the last read: their other copies go when we next write them. */
  let duplicated = new Set<string>();
  return {
    read() {
      const cookies = new Map<string, string>();
      const seen = new Set<string>();
      duplicated = new Set();
      for (const part of document.cookie.split(';')) {
        const pair = part.trim();
        const at = pair.indexOf('=');
        if (at <= 0) continue;
        const name = pair.slice(0, at);
        if (seen.has(name)) duplicated.add(name);
        seen.add(name);
        // Browsers list the most recently created copy last: that is the visitor's latest state.
        cookies.set(name, pair.slice(at + 1));
      }
      return cookies;
    },
    write(name, value, minutes) {
      if (duplicated.has(name)) {
        for (const place of places) if (place !== domain) erase(name, place);
        duplicated.delete(name);
      }
      const expires = new Date(Date.now() + minutes * 60_000).toUTCString();
      document.cookie = `${name}=${value}; expires=${expires}${attributes(domain)}`;
    },
    remove(name) {
      for (const place of places) erase(name, place);
    },
  };
}
