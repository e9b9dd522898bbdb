import type { RestMiddleware } from './restTypes';

const OVERRIDDEN = new Set(['PUT', 'PATCH', 'DELETE']);

/**
 * As WordPress's api-fetch does: PUT, PATCH and DELETE travel as POST with `X-HTTP-Method-Override`, because some hosts
 * and proxies refuse anything but GET and POST.
 */
export const httpV1Middleware: RestMiddleware = function httpV1Middleware(options, next) {
  const method = (options.method ?? 'GET').toUpperCase();
  if (!OVERRIDDEN.has(method)) return next(options);
  return next({
    ...options,
    method: 'POST',
    headers: { ...options.headers, 'X-HTTP-Method-Override': method },
  });
};
