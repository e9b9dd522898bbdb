/**
 * Every failure of the REST client, normalized to WordPress's `{code, message, data}`: the server's own error
 * body when there is one, else `invalid_json`, `unknown_error` or `fetch_error`. The code is a
 * string, not our server's union, because the same client talks to WordPress sites with codes of their own.
 */
export class RestError extends Error {
  override readonly name = 'RestError';
  constructor(
    readonly code: string,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const REST_MESSAGES = {
  invalid_json: 'The response is not a valid JSON response.',
  unknown_error: 'An unknown error occurred.',
  fetch_error: 'You are probably offline.',
  post_process:
    'Media upload failed. If this is a photo or a large image, please scale it down and try again.',
} as const;

export function isRestError(error: unknown): error is RestError {
  return error instanceof RestError;
}
