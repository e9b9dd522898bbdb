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
    // What a console or an error tracker shows first.
    expect(String(error)).toBe('RestError: Invalid parameter(s): per_page');
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

describe('createFetchHandler: what the server receives', () => {
  const sentWith = async (options: Parameters<ReturnType<typeof createFetchHandler>>[0]) => {
    let init: RequestInit | undefined;
    let target: RequestInfo | URL | undefined;
    const handler = createFetchHandler(((input: RequestInfo | URL, given?: RequestInit) => {
      target = input;
      init = given;
      return Promise.resolve(json({}));
    }) as typeof fetch);
    await handler(options);
    return { target, init, headers: (init?.headers ?? {}) as Record<string, string> };
  };

  it('asks for JSON, as GET when no method is named, with no body or content type when there is no data', async () => {
    const { init, headers } = await sentWith({ url: '/x' });
    expect(init?.method).toBe('GET');
    // A real browser refuses an empty method name, so the default has to be an actual method.
    expect(() => new Request('https://shop.test/x', { method: init?.method })).not.toThrow();
    expect(init?.body).toBeUndefined();
    expect(headers.Accept).toBe('application/json, */*;q=0.1');
    expect(Object.keys(headers).map((name) => name.toLowerCase())).not.toContain('content-type');
  });

  it('sends a body as given, even with data beside it, and adds no JSON content type to it', async () => {
    const form = 'a=1&b=2';
    const { init, headers } = await sentWith({
      url: '/x',
      method: 'POST',
      body: form,
      data: { ignored: true },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(init?.body).toBe(form);
    expect(headers).toEqual({
      Accept: 'application/json, */*;q=0.1',
      'content-type': 'application/x-www-form-urlencoded',
    });
  });

  it('keeps the content type the caller names for its data, whatever its case', async () => {
    const { init, headers } = await sentWith({
      url: '/x',
      method: 'PATCH',
      data: { a: 1 },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(init?.body).toBe('{"a":1}');
    expect(headers).toEqual({
      Accept: 'application/json, */*;q=0.1',
      'content-type': 'application/merge-patch+json',
    });
  });

  it('fails with fetch_error when the platform rejects with something that is not an Error', async () => {
    for (const thrown of [null, undefined, 'offline']) {
      const handler = createFetchHandler((() => Promise.reject(thrown)) as typeof fetch);
      expect(await caught(handler({ url: '/x' }))).toMatchObject({ code: 'fetch_error' });
    }
  });

  it('treats every status outside 2xx as a failure: a network error response and 300 Multiple Choices', async () => {
    const errored = await caught(
      handlerAnswering(() => Response.error()).handler({ url: '/x', parse: false }),
    );
    expect(errored).toBeInstanceOf(Response);
    expect((errored as Response).status).toBe(0);
    const choices = handlerAnswering(() =>
      json({ code: 'multiple_choices', message: 'Pick one' }, { status: 300 }),
    );
    expect(await caught(choices.handler({ url: '/x' }))).toMatchObject({
      code: 'multiple_choices',
      message: 'Pick one',
    });
    const created = handlerAnswering(() => json({ id: 1 }, { status: 299 }));
    expect(await created.handler({ url: '/x' })).toEqual({ id: 1 });
  });
});
