import { describe, expect, it } from 'vitest';
import { hiddenElementsCss } from './hiddenElementsCss';

describe('hiddenElementsCss', () => {
  const data = [
    { objectId: 1001, classNames: ['product_meta', 'star-rating'] },
    { objectId: '42', classNames: ['entry-content'] },
  ];

  it('hides the classes listed for the page object, and only those', () => {
    expect(hiddenElementsCss(data, 1001)).toBe('.product_meta,.star-rating{display:none!important}');
    expect(hiddenElementsCss(data, 42)).toBe('.entry-content{display:none!important}');
    expect(hiddenElementsCss(data, 1007)).toBe('');
    expect(hiddenElementsCss(data, null)).toBe('');
  });

  it('escapes class names so none can break out of the rule', () => {
    const css = hiddenElementsCss(
      [{ objectId: 1, classNames: ['a}body{display:none', '2col', '</style>'] }],
      1,
    );
    expect(css.match(/[{}]/g)).toEqual(['{', '}']);
    expect(css).not.toContain('<');
    expect(css).toBe(
      '.a\\7d body\\7b display\\3a none,.\\32 col,.\\3c \\2f style\\3e {display:none!important}',
    );
  });
});
