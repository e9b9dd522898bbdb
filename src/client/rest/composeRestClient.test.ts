import { describe, expect, it } from 'vitest';
import { composeRestClient } from './composeRestClient';
import type { RestMiddleware } from './restTypes';

describe('composeRestClient', () => {
  it('runs middlewares in order, and a theme middleware added with use() before them', async () => {
    const order: string[] = [];
    const tag =
      (name: string): RestMiddleware =>
      (options, next) => {
        order.push(name);
        return next({ ...options, headers: { ...options.headers, [name]: '1' } });
      };
    const client = composeRestClient([tag('a'), tag('b')], async (options) => options.headers);
    client.use(tag('theme'));
    expect(await client({ path: '/x' })).toEqual({ theme: '1', a: '1', b: '1' });
    expect(order).toEqual(['theme', 'a', 'b']);
  });

  it('lets a middleware answer without calling the rest of the chain', async () => {
    const client = composeRestClient([async () => 'cached'], async () => 'network');
    expect(await client({ path: '/x' })).toBe('cached');
  });
});
