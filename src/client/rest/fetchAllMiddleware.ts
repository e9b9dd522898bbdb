import { parseRestResponse, throwRestError } from './parseRestResponse';
import { addQueryArgs, getQueryArg } from './queryArgs';
import type { RestMiddleware, RestNext, RestRequest } from './restTypes';

const PAGE_SIZE = 100;

function withQuery(options: RestRequest, args: Record<string, number>): RestRequest {
  return {
    ...options,
    path: options.path === undefined ? undefined : addQueryArgs(options.path, args),
    url: options.url === undefined ? undefined : addQueryArgs(options.url, args),
  };
}

/** The `rel="next"` URL of a `Link` header (`<…>; rel="prev", <…>; rel="next"`). */
function nextPageUrl(response: Response): string | null {
  const header = response.headers.get('link') ?? '';
  for (const part of header.split(/,\s*(?=<)/)) {
    const match = /^<([^>]+)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match?.[1]) return match[1];
  }
  return null;
}

async function fetchPage(
  next: RestNext,
  options: RestRequest,
): Promise<{ items: unknown; response: Response }> {
  let response: Response;
  try {
    response = (await next({ ...options, parse: false })) as Response;
  } catch (error) {
    // Pages are fetched raw for their headers, but the caller asked for parsed answers: errors too.
    if (error instanceof Response) return throwRestError(error);
    throw error;
  }
  return { items: await parseRestResponse(response), response };
}

/**
 * As api-fetch does, `per_page=-1` means every item. It is fetched 100 at a time following the `Link` next
 * URLs; when a proxy strips `Link`, the remaining pages are counted from `X-WP-TotalPages` and fetched in
 * parallel. The pages are concatenated in order.
 */
export const fetchAllMiddleware: RestMiddleware = async function fetchAllMiddleware(options, next) {
  const target = options.path ?? options.url;
  const method = (options.method ?? 'GET').toUpperCase();
  if (options.parse === false || method !== 'GET' || !target || getQueryArg(target, 'per_page') !== '-1') {
    return next(options);
  }
  const first = await fetchPage(next, withQuery(options, { per_page: PAGE_SIZE }));
  if (!Array.isArray(first.items)) return first.items;
  const pages: unknown[][] = [first.items];

  let link = nextPageUrl(first.response);
  if (link) {
    while (link) {
      const page = await fetchPage(next, { ...options, path: undefined, url: link });
      pages.push(Array.isArray(page.items) ? page.items : []);
      link = nextPageUrl(page.response);
    }
  } else {
    const totalPages = Number(first.response.headers.get('x-wp-totalpages') ?? 1);
    const rest = Array.from({ length: Math.max(0, totalPages - 1) }, (_, index) =>
      fetchPage(next, withQuery(options, { per_page: PAGE_SIZE, page: index + 2 })),
    );
    for (const page of await Promise.all(rest)) pages.push(Array.isArray(page.items) ? page.items : []);
  }
  return pages.flat();
};
