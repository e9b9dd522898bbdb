/** CONTRACT.md "Cookies": `store_notice` + the optional notice id, value `hidden`, path `/`. */
export function storeNoticeCookieName(noticeId: string | null): string {
  return `store_notice${noticeId ?? ''}`;
}

/** The Set-Cookie string the browser writes when the visitor dismisses the notice; kept for a year. */
export function storeNoticeDismissalCookie(noticeId: string | null): string {
  return `${encodeURIComponent(storeNoticeCookieName(noticeId))}=hidden; path=/; max-age=31536000; SameSite=Lax`;
}

/** Whether a request's cookies say the visitor dismissed this notice. */
export function isStoreNoticeDismissed(cookies: Record<string, string | undefined>, noticeId: string | null) {
  return cookies[storeNoticeCookieName(noticeId)] === 'hidden';
}
