import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { AttributionReportRow, Repositories } from '../db/ports';
import { formatTable, parseReportOptions } from './reportRange';

export interface ReportContext {
  repositories: Repositories;
  /** The shop's settings (SHOP_CONFIG); the defaults when absent. */
  config?: ShopConfig;
  /** Where the report is written (stdout in the CLI). */
  write(text: string): void;
}

/** `npm run report -- attribution [--from D] [--to D] [--json]`: orders and revenue by where buyers came from. */
export async function attributionReport(args: string[], { repositories, write }: ReportContext) {
  const options = parseReportOptions(args);
  const rows = await repositories.attribution.summarize(options.range);
  if (options.json) {
    write(`${JSON.stringify({ from: options.range.from, to: options.range.to, rows }, null, 2)}\n`);
    return;
  }
  const money = (row: { revenue: number; currency: string }) =>
    `${(row.revenue / 100).toFixed(2)} ${row.currency}`;
  const byType = new Map<string, { orders: number; revenue: number; currency: string }>();
  for (const row of rows) {
    const key = `${row.sourceType}\u0000${row.currency}`;
    const total = byType.get(key) ?? { orders: 0, revenue: 0, currency: row.currency };
    total.orders += row.orders;
    total.revenue += row.revenue;
    byType.set(key, total);
  }
  const orders = rows.reduce((sum, row) => sum + row.orders, 0);
  write(`Order attribution ${options.range.from} to ${options.range.to} (UTC): ${orders} orders\n\n`);
  if (rows.length === 0) {
    write('No orders in this range.\n');
    return;
  }
  write(
    `${formatTable(
      ['source type', 'orders', 'revenue'],
      [...byType].map(([key, total]) => [key.split('\u0000')[0] ?? '', total.orders, money(total)]),
    )}\n\n`,
  );
  write(
    `${formatTable(
      ['source type', 'source', 'medium', 'campaign', 'orders', 'revenue'],
      rows.map((row: AttributionReportRow) => [
        row.sourceType,
        row.source,
        row.medium,
        row.campaign,
        row.orders,
        money(row),
      ]),
    )}\n`,
  );
}
