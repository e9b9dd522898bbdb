import { normalizePath } from './queryArgs';
import type { PreloadedResponses, RestMiddleware } from './restTypes';

/**
 * Answers GET requests from responses the server rendered into the page, each once (the next request for the
 * same path goes to the server and sees fresh data). Keys match whatever the order of query arguments.
 */
export function createPreloadingMiddleware(preloaded: PreloadedResponses): RestMiddleware {
  const cache = new Map(Object.entries(preloaded).map(([path, entry]) => [normalizePath(path), entry]));
  return async function preloadingMiddleware(options, next) {
    const method = (options.method ?? 'GET').toUpperCase();
    if (typeof options.path !== 'string' || method !== 'GET') return next(options);
    const key = normalizePath(options.path);
    const entry = cache.get(key);
    if (!entry) return next(options);
    cache.delete(key);
    if (options.parse !== false) return entry.body;
    return new Response(JSON.stringify(entry.body), {
      status: 200,
      headers: { 'Content-Type': 'application/json', ...entry.headers },
    });
  };
}
