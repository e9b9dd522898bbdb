import { describe, expect, it } from 'vitest';
import { addQueryArgs, getQueryArg, normalizePath } from './queryArgs';

describe('queryArgs', () => {
  it('adds and replaces arguments on relative and absolute URLs, keeping the hash', () => {
    expect(addQueryArgs('/wp/v2/posts', { per_page: 100 })).toBe('/wp/v2/posts?per_page=100');
    expect(addQueryArgs('/wp/v2/posts?per_page=-1&search=a b', { per_page: 100 })).toBe(
      '/wp/v2/posts?per_page=100&search=a+b',
    );
    expect(addQueryArgs('https://x.test/p?a=1#top', { b: 2 })).toBe('https://x.test/p?a=1&b=2#top');
  });

  it('reads an argument', () => {
    expect(getQueryArg('/p?per_page=-1', 'per_page')).toBe('-1');
    expect(getQueryArg('/p', 'per_page')).toBeNull();
  });

  it('normalizes a path: leading slash, sorted arguments', () => {
    expect(normalizePath('wp/v2/posts?b=2&a=1')).toBe('/wp/v2/posts?a=1&b=2');
    expect(normalizePath('/wp/v2/posts')).toBe('/wp/v2/posts');
  });
});

describe('addQueryArgs with nothing to add', () => {
  it('leaves a URL without a query as it was, hash included', () => {
    expect(addQueryArgs('/wp/v2/posts#top', {})).toBe('/wp/v2/posts#top');
    expect(addQueryArgs('/wp/v2/posts?', {})).toBe('/wp/v2/posts');
  });
});
