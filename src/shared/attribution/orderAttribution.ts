import type { DeviceType } from './deviceTypeOf';

/** What an order stores about where its buyer came from (order_attribution). */
export interface OrderAttribution {
  sourceType: string;
  referrer: string | null;
  utmCampaign: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmContent: string | null;
  utmId: string | null;
  utmTerm: string | null;
  utmSourcePlatform: string | null;
  utmCreativeFormat: string | null;
  utmMarketingTactic: string | null;
  sessionEntry: string | null;
  sessionStartTime: string | null;
  sessionPages: number | null;
  sessionCount: number | null;
  userAgent: string | null;
  deviceType: DeviceType;
  currentPage: string | null;
  promoCode: string | null;
}
