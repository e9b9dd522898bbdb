import { z } from 'zod';
import { ATTRIBUTION_FIELDS } from '../../shared/attribution/attributionFields';
import { deviceTypeOf } from '../../shared/attribution/deviceTypeOf';
import type { OrderAttribution } from '../../shared/attribution/orderAttribution';

/** Source types WooCommerce knows; anything else a browser sends is stored as `unknown`. */
const SOURCE_TYPES = new Set(['utm', 'organic', 'referral', 'typein', 'admin', 'mobile_app', 'unknown']);
const URL_MAX = 2048;
const TEXT_MAX = 200;

/** Bounded text: an oversized value is cut, an empty one is absent. Never an error: the order must go through. */
const text = (max: number) =>
  z
    .unknown()
    .transform((value) =>
      typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null,
    );
const count = z.unknown().transform((value) => {
  const parsed =
    typeof value === 'string' && /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  return Number.isSafeInteger(parsed) ? parsed : null;
});

/**
 * The checkout's attribution inputs (named with `attribution.fieldPrefix`), validated and bounded; unknown fields are
 * ignored. Null when the browser sent none (tracking off or no consent): the order then has no attribution row.
 * The device type comes from the user agent by the shared rule, so a tampered input cannot make it up.
 */
export function parseAttributionFields(
  body: Record<string, unknown>,
  prefix: string,
  requestUserAgent: string | undefined,
): OrderAttribution | null {
  const raw: Record<string, unknown> = {};
  for (const field of ATTRIBUTION_FIELDS) raw[field] = body[`${prefix}${field}`];
  const shape = z.object({
    source_type: text(32),
    referrer: text(URL_MAX),
    utm_campaign: text(TEXT_MAX),
    utm_source: text(TEXT_MAX),
    utm_medium: text(TEXT_MAX),
    utm_content: text(TEXT_MAX),
    utm_id: text(TEXT_MAX),
    utm_term: text(TEXT_MAX),
    utm_source_platform: text(TEXT_MAX),
    utm_creative_format: text(TEXT_MAX),
    utm_marketing_tactic: text(TEXT_MAX),
    session_entry: text(URL_MAX),
    session_start_time: text(32),
    session_pages: count,
    session_count: count,
    user_agent: text(512),
    current_page: text(URL_MAX),
    promo_code: text(16),
  });
  const fields = shape.parse(raw);
  if (fields.source_type === null) return null;
  const userAgent = fields.user_agent ?? requestUserAgent?.slice(0, 512) ?? null;
  return {
    sourceType: SOURCE_TYPES.has(fields.source_type) ? fields.source_type : 'unknown',
    referrer: fields.referrer,
    utmCampaign: fields.utm_campaign,
    utmSource: fields.utm_source,
    utmMedium: fields.utm_medium,
    utmContent: fields.utm_content,
    utmId: fields.utm_id,
    utmTerm: fields.utm_term,
    utmSourcePlatform: fields.utm_source_platform,
    utmCreativeFormat: fields.utm_creative_format,
    utmMarketingTactic: fields.utm_marketing_tactic,
    sessionEntry: fields.session_entry,
    sessionStartTime: fields.session_start_time,
    sessionPages: fields.session_pages,
    sessionCount: fields.session_count,
    userAgent,
    // The checkout request's own user agent decides the device: it is the buyer's device now.
    deviceType: deviceTypeOf(requestUserAgent ?? userAgent ?? ''),
    currentPage: fields.current_page,
    promoCode: fields.promo_code,
  };
}
