import { describe, expect, it } from 'vitest';
import { filterFields, parseFieldsParam } from './filterFields';

const post = { id: 1, slug: 'a', title: { rendered: 'A', raw: 'a' }, meta: null, tags: [1, 2] };

describe('filterFields', () => {
  it('keeps named top-level fields and ignores unknown ones', () => {
    expect(filterFields(post, ['id', 'tags', 'nope'])).toEqual({ id: 1, tags: [1, 2] });
  });

  it('keeps a nested part, and the whole field when both are named', () => {
    expect(filterFields(post, ['title.rendered'])).toEqual({ title: { rendered: 'A' } });
    expect(filterFields(post, ['title', 'title.rendered'])).toEqual({ title: { rendered: 'A', raw: 'a' } });
    expect(filterFields(post, ['meta.x'])).toEqual({ meta: null });
  });

  it('keeps everything when no field is named', () => {
    expect(filterFields(post, [])).toBe(post);
  });
});

describe('parseFieldsParam', () => {
  it('reads comma lists and repeated parameters', () => {
    expect(parseFieldsParam('id, title.rendered,,')).toEqual(['id', 'title.rendered']);
    expect(parseFieldsParam(['id', 'slug,link'])).toEqual(['id', 'slug', 'link']);
    expect(parseFieldsParam(undefined)).toEqual([]);
  });
});
