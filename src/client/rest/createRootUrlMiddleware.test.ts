import { describe, expect, it } from 'vitest';
import { createRootUrlMiddleware } from './createRootUrlMiddleware';
import type { RestRequest } from './restTypes';

const run = async (root: string, options: RestRequest) => {
  let seen: RestRequest | undefined;
  await createRootUrlMiddleware(root)(options, async (next) => {
    seen = next;
  });
  return seen as RestRequest;
};

describe('createRootUrlMiddleware', () => {
  it('puts the path under the root', async () => {
    expect((await run('/wp-json/', { path: '/wp/v2/posts?page=2' })).url).toBe('/wp-json/wp/v2/posts?page=2');
    expect((await run('https://shop.test/wp-json/', { path: 'wp/v2/posts' })).url).toBe(
      'https://shop.test/wp-json/wp/v2/posts',
    );
  });

  it('joins the query with & under a root that has one (plain permalinks)', async () => {
    expect((await run('/?rest_route=/', { path: '/wp/v2/posts?page=2' })).url).toBe(
      '/?rest_route=/wp/v2/posts&page=2',
    );
  });

  it('leaves a request with a url alone', async () => {
    expect((await run('/wp-json/', { url: 'https://other.test/x', path: '/y' })).url).toBe(
      'https://other.test/x',
    );
  });
});
