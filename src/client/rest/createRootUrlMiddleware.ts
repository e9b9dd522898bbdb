import type { RestMiddleware } from './restTypes';

/**
 * Turns `path` into a `url` under the REST root (`rest.root`), as WordPress's root-URL middleware does. A root
 * with a query string (`/?rest_route=/` on sites without pretty permalinks) takes the path's query after `&`.
 */
export function createRootUrlMiddleware(root: string): RestMiddleware {
  return function rootUrlMiddleware(options, next) {
    if (typeof options.path !== 'string' || options.url !== undefined) return next(options);
    let path = options.path.replace(/^\//, '');
    if (root.includes('?')) path = path.replace('?', '&');
    return next({ ...options, url: `${root}${path}` });
  };
}
