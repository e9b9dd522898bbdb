import { describe, expect, it } from 'vitest';
import { httpV1Middleware } from './httpV1Middleware';
import type { RestRequest } from './restTypes';

const run = async (options: RestRequest) => {
  let seen: RestRequest | undefined;
  await httpV1Middleware(options, async (next) => {
    seen = next;
  });
  return seen as RestRequest;
};

describe('httpV1Middleware', () => {
  it.each(['PUT', 'PATCH', 'DELETE', 'delete'])(
    'sends %s as POST with X-HTTP-Method-Override',
    async (method) => {
      const sent = await run({ path: '/x', method, headers: { 'X-Custom': '1' } });
      expect(sent.method).toBe('POST');
      expect(sent.headers).toEqual({ 'X-Custom': '1', 'X-HTTP-Method-Override': method.toUpperCase() });
    },
  );

  it.each([undefined, 'GET', 'POST'])('leaves %s as it is', async (method) => {
    const sent = await run({ path: '/x', method });
    expect(sent.method).toBe(method);
    expect(sent.headers).toBeUndefined();
  });
});
