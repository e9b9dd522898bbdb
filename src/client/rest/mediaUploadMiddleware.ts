import { parseRestResponse, throwRestError } from './parseRestResponse';
import { REST_MESSAGES, RestError } from './RestError';
import type { RestMiddleware, RestRequest } from './restTypes';

const MAX_POST_PROCESS_ATTEMPTS = 5;

function isMediaUpload(options: RestRequest): boolean {
  const target = options.path ?? options.url ?? '';
  return (options.method ?? 'GET').toUpperCase() === 'POST' && /\/wp\/v2\/media\/?(\?|$)/.test(target);
}

/**
 * As api-fetch does: when an upload's answer is a 5xx naming the attachment (`X-WP-Upload-Attachment-ID`: the
 * file is stored but its sub-sizes are not), ask the server to finish them with post-process, up to 5 times;
 * if that never succeeds, delete the half-made attachment and fail with `post_process`.
 */
export const mediaUploadMiddleware: RestMiddleware = async function mediaUploadMiddleware(options, next) {
  if (!isMediaUpload(options)) return next(options);
  const parse = options.parse !== false;
  let response: Response;
  try {
    response = (await next({ ...options, parse: false })) as Response;
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    const attachmentId = error.headers.get('x-wp-upload-attachment-id');
    if (error.status < 500 || error.status >= 600 || !attachmentId) return throwRestError(error, parse);
    response = await postProcess(attachmentId, error);
  }
  return parseRestResponse(response, parse);

  async function postProcess(attachmentId: string, failure: Response): Promise<Response> {
    for (let attempt = 1; attempt <= MAX_POST_PROCESS_ATTEMPTS; attempt++) {
      try {
        return (await next({
          path: `/wp/v2/media/${attachmentId}/post-process`,
          method: 'POST',
          data: { action: 'create-image-subsizes' },
          parse: false,
          signal: options.signal,
        })) as Response;
      } catch {
        // Try again: the server may have run out of time or memory on this attempt only.
      }
    }
    await next({ path: `/wp/v2/media/${attachmentId}?force=true`, method: 'DELETE' }).catch(() => {});
    if (!parse) throw failure;
    throw new RestError('post_process', REST_MESSAGES.post_process);
  }
};
