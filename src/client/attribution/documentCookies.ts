import type { CookieAccess } from './createAttributionTracker';

/** `document.cookie` as the tracker needs it: a domain attribute only when the shop configured a cookie domain. */
export function documentCookies(document: Pick<Document, 'cookie'>, hostname: string): CookieAccess {
  const suffix = (domain: string | null) => `; path=/${domain ? `; domain=.${domain}` : ''}; SameSite=Lax`;
  return {
    read() {
      const cookies = new Map<string, string>();
      for (const part of document.cookie.split(';')) {
        const pair = part.trim();
        const at = pair.indexOf('=');
        if (at > 0 && !cookies.has(pair.slice(0, at))) cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return cookies;
    },
    write(name, value, minutes, domain) {
      const expires = new Date(Date.now() + minutes * 60_000).toUTCString();
      document.cookie = `${name}=${value}; expires=${expires}${suffix(domain)}`;
    },
    remove(name, domain) {
      document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT${suffix(domain)}`;
      // A WooCommerce shop wrote its cookies with a leading-dot domain: remove that copy too.
      if (!domain)
        document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT${suffix(hostname.replace(/^www\./, ''))}`;
    },
  };
}
