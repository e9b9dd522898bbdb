import { REST_MESSAGES, RestError } from './RestError';

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new RestError('invalid_json', REST_MESSAGES.invalid_json);
  }
}

/** A successful answer: its JSON, `null` for 204 No Content, or the Response itself when `parse` is false. */
export async function parseRestResponse(response: Response, parse = true): Promise<unknown> {
  if (!parse) return response;
  if (response.status === 204) return null;
  return readJson(response);
}

/** A failed answer as a RestError from its `{code, message, data}` body; with `parse` false, the Response itself. */
export async function throwRestError(response: Response, parse = true): Promise<never> {
  if (!parse) throw response;
  const body = await readJson(response);
  if (body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'string') {
    const { code, message, data } = body as { code: string; message?: unknown; data?: unknown };
    throw new RestError(code, typeof message === 'string' ? message : REST_MESSAGES.unknown_error, data);
  }
  throw new RestError('unknown_error', REST_MESSAGES.unknown_error, { status: response.status });
}
