/** The cookie that remembers a dismissed store notice: `store_notice` + the optional notice id, value `hidden`, path `/`. */
export function storeNoticeCookieName(noticeId: string | null): string {
  return `store_notice${noticeId ?? ''}`;
}

/**
 * The name as it travels in Cookie headers. A cookie name cannot hold spaces, `;`, `=` and the like, so the browser
 * writes it percent-encoded, and request cookie parsers hand names back exactly as sent: reader and writer must
 * both use this form, or a notice whose id has such a character comes back after every dismissal.
 */
function wireName(noticeId: string | null): string {
  return encodeURIComponent(storeNoticeCookieName(noticeId));
}

/** The Set-Cookie string the browser writes when the visitor dismisses the notice; kept for a year. */
export function storeNoticeDismissalCookie(noticeId: string | null): string {
  return `${wireName(noticeId)}=hidden; path=/; max-age=31536000; SameSite=Lax`;
}

/** Whether a request's cookies (names as sent, values decoded) say the visitor dismissed this notice. */
export function isStoreNoticeDismissed(cookies: Record<string, string | undefined>, noticeId: string | null) {
  return cookies[wireName(noticeId)] === 'hidden';
}
