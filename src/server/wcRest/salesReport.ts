import type { DailySales, OrderAdminRepository } from '../db/ports';
import { wcMoney } from './resources';

/*
 * The sales report of wc/v3/reports/sales, WooCommerce's shape, the shop's definitions:
 *
 * - Range: whole UTC days. `date_min`..`date_max` (both included; one missing: the other, or today for date_max);
 *   else `period`: `week` = the last 7 days with today, `month` = this month so far, `last_month`, `year` = this
 *   year so far; no period and no dates: `week`, as WooCommerce.
 * - Orders counted: those placed in the range whose status is processing, completed or on-hold (SALES_STATUSES),
 *   by the day they were placed (UTC).
 * - `total_sales`: the sum of their totals (items, item tax, shipping and its tax). `total_tax`: items' and
 *   shipping's tax. `total_shipping`: shipping before tax. `net_sales` = total_sales − total_tax − total_shipping.
 *   `average_sales` = net_sales ÷ the number of days in the range. `total_items`: quantities of their lines.
 * - Refunds, discounts and customers are 0: the shop has no refunds, coupons or customer accounts (WooCommerce
 *   counts newly registered customers there).
 * - `totals` holds every day of the range, days without a counted order with zeros.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export interface SalesReportQuery {
  period?: 'week' | 'month' | 'last_month' | 'year';
  date_min?: string;
  date_max?: string;
}

/** The report's days: first and last (YYYY-MM-DD, UTC, both included). */
export function reportRange(query: SalesReportQuery, now: Date): { first: string; last: string } {
  const today = now.toISOString().slice(0, 10);
  if (query.date_min !== undefined || query.date_max !== undefined) {
    const last = query.date_max ?? today;
    const first = query.date_min ?? last;
    return first <= last ? { first, last } : { first: last, last: first };
  }
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
  switch (query.period ?? 'week') {
    case 'week':
      return { first: iso(Date.parse(today) - 6 * DAY_MS), last: today };
    case 'month':
      return { first: iso(Date.UTC(year, month, 1)), last: today };
    case 'last_month':
      return { first: iso(Date.UTC(year, month - 1, 1)), last: iso(Date.UTC(year, month, 1) - DAY_MS) };
    case 'year':
      return { first: iso(Date.UTC(year, 0, 1)), last: today };
  }
}

function daysOf(first: string, last: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(first); time <= Date.parse(last) && days.length < 3700; time += DAY_MS)
    days.push(new Date(time).toISOString().slice(0, 10));
  return days;
}

export async function salesReport(
  orders: Pick<OrderAdminRepository, 'salesByDay'>,
  query: SalesReportQuery,
  decimals: number,
  now: Date,
) {
  const { first, last } = reportRange(query, now);
  const days = daysOf(first, last);
  const from = `${first}T00:00:00.000Z`;
  const to = new Date(Date.parse(last) + DAY_MS).toISOString();
  const byDay = new Map<string, DailySales>((await orders.salesByDay(from, to)).map((row) => [row.day, row]));
  const money = (minor: number) => wcMoney(minor, decimals);
  const sum = (field: 'sales' | 'tax' | 'shipping' | 'items' | 'orders') =>
    [...byDay.values()].reduce((total, row) => total + row[field], 0);
  const net = sum('sales') - sum('tax') - sum('shipping');
  return {
    total_sales: money(sum('sales')),
    net_sales: money(net),
    average_sales: (net / 10 ** decimals / Math.max(1, days.length)).toFixed(2),
    total_orders: sum('orders'),
    total_items: sum('items'),
    total_tax: money(sum('tax')),
    total_shipping: money(sum('shipping')),
    total_refunds: 0,
    total_discount: money(0),
    totals_grouped_by: 'day',
    totals: Object.fromEntries(
      days.map((day) => {
        const row = byDay.get(day);
        return [
          day,
          {
            sales: money(row?.sales ?? 0),
            orders: row?.orders ?? 0,
            items: row?.items ?? 0,
            tax: money(row?.tax ?? 0),
            shipping: money(row?.shipping ?? 0),
            discount: money(0),
            customers: 0,
          },
        ];
      }),
    ),
    total_customers: 0,
  };
}
