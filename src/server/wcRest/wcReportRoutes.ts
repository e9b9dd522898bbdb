import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { OrderAdminRepository } from '../db/ports';
import type { ApiKeyService } from './apiKeys/apiKeyService';
import type { WcContext } from './resources';
import { salesReport } from './salesReport';
import { parseWcInput, wcRoute } from './wcRoute';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, like 2026-11-01');
const reportQuery = z.object({
  period: z.enum(['week', 'month', 'last_month', 'year']).optional(),
  date_min: day.optional(),
  date_max: day.optional(),
});

/** wc/v3/reports/sales: the sales report (salesReport.ts says what it counts). */
export function registerWcReportRoutes(
  app: FastifyInstance,
  keys: ApiKeyService,
  orders: OrderAdminRepository,
  contextOf: (request: FastifyRequest) => WcContext,
  now: () => Date = () => new Date(),
) {
  wcRoute(app, keys, '/reports/sales', {
    async GET(request) {
      const query = parseWcInput(reportQuery, request.query);
      return [await salesReport(orders, query, contextOf(request).decimals, now())];
    },
  });
}
