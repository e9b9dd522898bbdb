import type { FastifyRequest } from 'fastify';

export const REST_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type RestMethod = (typeof REST_METHODS)[number];

/**
 * The method a REST request means: WordPress honours `X-HTTP-Method-Override` (and `?_method=`) on POST, for
 * hosts and proxies that refuse PUT, PATCH and DELETE. Only POST may be overridden, so a GET link can never
 * turn into a state change.
 */
export function effectiveRestMethod(request: FastifyRequest): string {
  if (request.method !== 'POST') return request.method;
  const header = request.headers['x-http-method-override'];
  const query = (request.query as Record<string, unknown> | undefined)?._method;
  const override = typeof header === 'string' ? header : typeof query === 'string' ? query : '';
  return override ? override.trim().toUpperCase() : 'POST';
}
