/*
 * How WooCommerce's REST API v3 writes values: money as decimal strings ("19.90"), dates as local and GMT
 * ISO-8601 without a zone ("2026-11-27T10:21:00"), absolute links from the shop's public origin.
 */

/** What every serializer needs from the shop: the currency's decimals and the public origin for links. */
export interface WcContext {
  /** Minor-unit decimals of the shop's currency (`shop.currency.decimals`). */
  decimals: number;
  /** The shop's public origin, e.g. `https://shop.example` (no trailing slash); '' leaves links relative. */
  origin: string;
}

/** Minor units → WooCommerce's decimal string; null → '' as WooCommerce writes an unset price. */
export function wcMoney(minor: number | null, decimals: number): string {
  if (minor === null) return '';
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(Math.trunc(minor))).padStart(decimals + 1, '0');
  if (decimals === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/**
 * WooCommerce's decimal string → minor units; null for '' (an unset price); NaN for anything else that is not
 * a number with at most `decimals` places (the caller refuses it in words).
 */
export function parseWcMoney(text: string, decimals: number): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const match = /^(\d+)(?:\.(\d*))?$/.exec(trimmed);
  if (!match || (match[2]?.length ?? 0) > decimals) return Number.NaN;
  const whole = match[1] as string;
  const fraction = (match[2] ?? '').padEnd(decimals, '0');
  return Number(`${whole}${fraction}`);
}

/**
 * WooCommerce's `date_*` (site time) and `date_*_gmt` pair. The shop keeps UTC and runs its site clock in UTC, so
 * both read the same instant, to the second, without a zone suffix.
 */
export function wcDates(iso: string | null): { local: string | null; gmt: string | null } {
  if (iso === null) return { local: null, gmt: null };
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return { local: null, gmt: null };
  const text = new Date(time).toISOString().slice(0, 19);
  return { local: text, gmt: text };
}

/** A path made absolute with the shop's origin; an address that is already absolute stays as it is. */
export function absoluteUrl(pathOrUrl: string, origin: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return `${origin.replace(/\/$/, '')}${pathOrUrl}`;
}
