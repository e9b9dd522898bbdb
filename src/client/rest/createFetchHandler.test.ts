import { describe, expect, it } from 'vitest';
import { createFakeFetch, json } from './createFakeFetch';
import { createFetchHandler } from './createFetchHandler';
import { RestError } from './RestError';

const handlerAnswering = (answer: Parameters<typeof createFakeFetch>[0]) => {
  const fake = createFakeFetch(answer);
  return { handler: createFetchHandler(fake.fetch), calls: fake.calls };
};
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('createFetchHandler', () => {
  it('sends data as JSON with cookies and answers the parsed body', async () => {
    const fake = createFakeFetch(() => json({ ok: 1 }));
    let init: RequestInit | undefined;
    const handler = createFetchHandler(((input: RequestInfo | URL, given?: RequestInit) => {
      init = given;
      return fake.fetch(input, given);
    }) as typeof fetch);
    expect(await handler({ url: '/x', method: 'POST', data: { a: 1 } })).toEqual({ ok: 1 });
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"a":1}' });
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json' });
  });

  it('answers null for 204 No Content and the Response itself with parse: false', async () => {
    expect(
      await handlerAnswering(() => new Response(null, { status: 204 })).handler({ url: '/x' }),
    ).toBeNull();
    const raw = await handlerAnswering(() => json([1])).handler({ url: '/x', parse: false });
    expect(raw).toBeInstanceOf(Response);
  });

  it('turns the server error body into a RestError with its code, message and data', async () => {
    const { handler } = handlerAnswering(() =>
      json(
        { code: 'rest_invalid_param', message: 'Invalid parameter(s): per_page', data: { status: 400 } },
        { status: 400 },
      ),
    );
    const error = await caught(handler({ url: '/x' }));
    expect(error).toBeInstanceOf(RestError);
    expect(error).toMatchObject({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): per_page',
      data: { status: 400 },
    });
  });

  it('reports invalid_json for a body that is not JSON, on success and on failure', async () => {
    for (const status of [200, 500]) {
      const { handler } = handlerAnswering(() => new Response('<html>Fatal error</html>', { status }));
      expect(await caught(handler({ url: '/x' }))).toMatchObject({
        code: 'invalid_json',
        message: 'The response is not a valid JSON response.',
      });
    }
  });

  it('reports unknown_error for an error body without a code', async () => {
    const { handler } = handlerAnswering(() => json({ oops: true }, { status: 502 }));
    expect(await caught(handler({ url: '/x' }))).toMatchObject({
      code: 'unknown_error',
      message: 'An unknown error occurred.',
    });
  });

  it('reports fetch_error when the network fails, but lets an abort through', async () => {
    const offline = handlerAnswering(() => {
      throw new TypeError('Failed to fetch');
    });
    expect(await caught(offline.handler({ url: '/x' }))).toMatchObject({
      code: 'fetch_error',
      message: 'You are probably offline.',
    });
    const aborted = handlerAnswering(() => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    expect(await caught(aborted.handler({ url: '/x' }))).toMatchObject({ name: 'AbortError' });
  });

  it('rejects with the Response itself on failure when parse is false', async () => {
    const { handler } = handlerAnswering(() => json({ code: 'x', message: 'y' }, { status: 404 }));
    const error = await caught(handler({ url: '/x', parse: false }));
    expect(error).toBeInstanceOf(Response);
  });
});
