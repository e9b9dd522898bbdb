/**
 * Whether the browser runs on iOS or iPadOS. iPadOS Safari asks for desktop pages by default and reports itself
 * as "Macintosh", so a Mac user agent on a touch screen counts too (no Mac has a touch screen).
 */
export function isIOS(navigator: { userAgent: string; maxTouchPoints?: number }): boolean {
  if (/iP(hone|ad|od)/.test(navigator.userAgent)) return true;
  return /Macintosh/.test(navigator.userAgent) && (navigator.maxTouchPoints ?? 0) > 1;
}
