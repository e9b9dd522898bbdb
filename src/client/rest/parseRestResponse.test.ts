import { describe, expect, it } from 'vitest';
import { json } from './createFakeFetch';
import { throwRestError } from './parseRestResponse';
import { RestError } from './RestError';

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('throwRestError: a failed answer as the caller meets it', () => {
  it('names the failure with the server’s code, and a readable message when the server gave none', async () => {
    const error = await caught(
      throwRestError(json({ code: 'rest_no_route', data: { status: 404 } }, { status: 404 })),
    );
    expect(error).toBeInstanceOf(RestError);
    expect(error).toMatchObject({
      code: 'rest_no_route',
      message: 'An unknown error occurred.',
      data: { status: 404 },
    });
  });

  it('reports unknown_error with the status for a body that is JSON but no error object', async () => {
    for (const body of [null, 'Bad gateway', 502, ['x']]) {
      const error = await caught(throwRestError(json(body, { status: 502 })));
      expect(error).toBeInstanceOf(RestError);
      expect(error).toMatchObject({
        code: 'unknown_error',
        message: 'An unknown error occurred.',
        data: { status: 502 },
      });
    }
  });
});
