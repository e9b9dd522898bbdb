import { describe, expect, it } from 'vitest';
import type { RestRequest } from './restTypes';
import { userLocaleMiddleware } from './userLocaleMiddleware';

const run = async (options: RestRequest) => {
  let seen: RestRequest | undefined;
  await userLocaleMiddleware(options, async (next) => {
    seen = next;
  });
  return seen;
};

describe('userLocaleMiddleware', () => {
  it('adds _locale=user to paths and URLs, after any query they have', async () => {
    expect((await run({ path: '/wp/v2/posts' }))?.path).toBe('/wp/v2/posts?_locale=user');
    expect((await run({ path: '/wp/v2/posts?per_page=5' }))?.path).toBe(
      '/wp/v2/posts?per_page=5&_locale=user',
    );
    expect((await run({ url: 'https://shop.test/wp-json/wp/v2/pages' }))?.url).toBe(
      'https://shop.test/wp-json/wp/v2/pages?_locale=user',
    );
  });

  it('leaves a request that names its locale alone', async () => {
    expect((await run({ path: '/wp/v2/posts?_locale=fr_FR' }))?.path).toBe('/wp/v2/posts?_locale=fr_FR');
  });
});
