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

  it('hides nothing on a page without an object, and skips blank names, trimming and merging the rest', () => {
    expect(hiddenElementsCss([{ objectId: 0, classNames: ['x'] }], undefined)).toBe('');
    expect(hiddenElementsCss([{ objectId: 'null', classNames: ['x'] }], null)).toBe('');
    expect(
      hiddenElementsCss(
        [
          { objectId: 5, classNames: [' price ', '', '   '] },
          { objectId: '5', classNames: ['price', 'cart'] },
        ],
        5,
      ),
    ).toBe('.price,.cart{display:none!important}');
    expect(hiddenElementsCss([{ objectId: 5, classNames: ['', ' '] }], 5)).toBe('');
  });

  it('escapes characters outside the basic plane whole', () => {
    expect(hiddenElementsCss([{ objectId: 1, classNames: ['a😀'] }], 1)).toBe(
      '.a\\1f600 {display:none!important}',
    );
  });
});
