import { parseRestResponse, throwRestError } from './parseRestResponse';
import { REST_MESSAGES, RestError } from './RestError';
import type { RestNext } from './restTypes';

/**
 * The end of the chain: the actual `fetch`, with WordPress's defaults (JSON in and out, cookies sent), a failed
 * status turned into a RestError and a network failure into `fetch_error`. An abort stays an AbortError.
 */
export function createFetchHandler(fetchImpl: typeof fetch): RestNext {
  return async function fetchHandler(options) {
    const { url, path, data, body, method = 'GET', parse = true, signal, credentials = 'include' } = options;
    const headers: Record<string, string> = { Accept: 'application/json, */*;q=0.1', ...options.headers };
    let payload = body;
    if (payload === undefined && data !== undefined) {
      payload = JSON.stringify(data);
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
        headers['Content-Type'] = 'application/json';
      }
    }
    let response: Response;
    try {
      // Called unbound: a browser's fetch throws "Illegal invocation" when called as a method of another object.
      response = await fetchImpl(url ?? path ?? '', { method, headers, body: payload, credentials, signal });
    } catch (error) {
      if ((error as { name?: string } | null)?.name === 'AbortError') throw error;
      throw new RestError('fetch_error', REST_MESSAGES.fetch_error);
    }
    if (response.status < 200 || response.status >= 300) return throwRestError(response, parse);
    return parseRestResponse(response, parse);
  };
}
