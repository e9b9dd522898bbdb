import type { OrderAttribution } from '../../../shared/attribution/orderAttribution';
import type { DayRange } from '../../../shared/dates/dayRange';

export interface AttributionReportRow {
  sourceType: string;
  source: string;
  medium: string;
  campaign: string;
  currency: string;
  orders: number;
  /** Minor units. */
  revenue: number;
}

export interface AttributionRepository {
  getOrderAttribution(orderId: number): Promise<OrderAttribution | null>;
  /** Orders and revenue by source type, source, medium and campaign over a date range (`npm run report -- attribution`). */
  summarize(range: DayRange): Promise<AttributionReportRow[]>;
}
