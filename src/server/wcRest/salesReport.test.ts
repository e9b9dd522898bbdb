import { describe, expect, it } from 'vitest';
import type { DailySales } from '../db/ports';
import { reportRange, salesReport } from './salesReport';

/* The sales report's range and figures, computed here by hand from two days of sales. */

const NOW = new Date('2026-03-10T15:00:00Z');

describe('reportRange', () => {
  it.each([
    [{}, '2026-03-04', '2026-03-10'],
    [{ period: 'week' as const }, '2026-03-04', '2026-03-10'],
    [{ period: 'month' as const }, '2026-03-01', '2026-03-10'],
    [{ period: 'last_month' as const }, '2026-02-01', '2026-02-28'],
    [{ period: 'year' as const }, '2026-01-01', '2026-03-10'],
    [{ date_min: '2026-01-05', date_max: '2026-01-07' }, '2026-01-05', '2026-01-07'],
    [{ date_min: '2026-01-07', date_max: '2026-01-05' }, '2026-01-05', '2026-01-07'],
    [{ date_max: '2026-01-05' }, '2026-01-05', '2026-01-05'],
    [{ date_min: '2026-03-08' }, '2026-03-08', '2026-03-10'],
  ])('%j covers %s to %s', (query, first, last) => {
    expect(reportRange(query, NOW)).toEqual({ first, last });
  });
});

describe('salesReport', () => {
  it('adds the days up and fills the days without sales with zeros', async () => {
    const days: DailySales[] = [
      { day: '2026-03-08', orders: 2, sales: 12_000, tax: 1_000, shipping: 1_000, items: 5 },
      { day: '2026-03-10', orders: 1, sales: 3_050, tax: 250, shipping: 500, items: 1 },
    ];
    let asked: [string, string] | null = null;
    const report = await salesReport(
      {
        async salesByDay(from, to) {
          asked = [from, to];
          return days;
        },
      },
      { date_min: '2026-03-07', date_max: '2026-03-10' },
      2,
      NOW,
    );
    // The whole last day is in: up to the next midnight, UTC.
    expect(asked).toEqual(['2026-03-07T00:00:00.000Z', '2026-03-11T00:00:00.000Z']);
    // By hand: sales 120.00 + 30.50; tax 10.00 + 2.50; shipping 10.00 + 5.00;
    // net = 150.50 − 12.50 − 15.00 = 123.00; average over the 4 days of the range = 30.75.
    expect(report).toMatchObject({
      total_sales: '150.50',
      total_tax: '12.50',
      total_shipping: '15.00',
      net_sales: '123.00',
      average_sales: '30.75',
      total_orders: 3,
      total_items: 6,
      total_refunds: 0,
      total_discount: '0.00',
      total_customers: 0,
      totals_grouped_by: 'day',
    });
    expect(report.totals).toEqual({
      '2026-03-07': expect.objectContaining({ sales: '0.00', orders: 0 }),
      '2026-03-08': expect.objectContaining({ sales: '120.00', orders: 2, items: 5, tax: '10.00' }),
      '2026-03-09': expect.objectContaining({ sales: '0.00', orders: 0, items: 0 }),
      '2026-03-10': expect.objectContaining({ sales: '30.50', orders: 1, shipping: '5.00' }),
    });
  });
});
