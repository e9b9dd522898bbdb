import { type PreloadedResponses, REST_PRELOAD_SCRIPT_ID } from '../../shared/rest/preloadedResponses';

/** The REST answers the server rendered into this page, for `createRestClient({preloaded})`; none if absent or unreadable. */
export function readPreloadedResponses(document: Pick<Document, 'getElementById'>): PreloadedResponses {
  const text = document.getElementById(REST_PRELOAD_SCRIPT_ID)?.textContent;
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as PreloadedResponses) : {};
  } catch {
    return {};
  }
}
