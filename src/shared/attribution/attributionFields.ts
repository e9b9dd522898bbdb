import type { TrafficData } from './computeTrafficCookies';
import { deviceTypeOf } from './deviceTypeOf';

/** docs/contract.md "Checkout attribution inputs": each is a hidden input named `attribution.fieldPrefix` + the name. */
export const ATTRIBUTION_FIELDS = [
  'source_type',
  'referrer',
  'utm_campaign',
  'utm_source',
  'utm_medium',
  'utm_content',
  'utm_id',
  'utm_term',
  'utm_source_platform',
  'utm_creative_format',
  'utm_marketing_tactic',
  'session_entry',
  'session_start_time',
  'session_pages',
  'session_count',
  'user_agent',
  'device_type',
  'current_page',
  'promo_code',
] as const;

export type AttributionField = (typeof ATTRIBUTION_FIELDS)[number];
export type AttributionValues = Partial<Record<AttributionField, string>>;

/** The checkout values from the decoded cookies, mapped as WooCommerce's order-attribution script maps them. */
export function toAttributionFields(data: TrafficData): AttributionValues {
  const fields: AttributionValues = {
    source_type: data.current.typ,
    referrer: data.currentExtra.rf,
    utm_campaign: data.current.cmp,
    utm_source: data.current.src,
    utm_medium: data.current.mdm,
    utm_content: data.current.cnt,
    utm_id: data.current.id,
    utm_term: data.current.trm,
    utm_source_platform: data.current.plt,
    utm_creative_format: data.current.fmt,
    utm_marketing_tactic: data.current.tct,
    session_entry: data.currentExtra.ep,
    session_start_time: data.currentExtra.fd,
    session_pages: data.session.pgs,
    session_count: data.udata.vst,
    user_agent: data.udata.uag,
    device_type: data.udata.uag === undefined ? undefined : deviceTypeOf(data.udata.uag),
    current_page: data.session.cpg,
    promo_code: data.promo.code,
  };
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ) as AttributionValues;
}
