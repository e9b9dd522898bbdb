import { describe, expect, it } from 'vitest';
import { isFragments, parseErrorAnswer, parseFragmentsAnswer } from './fragmentsPayload';

describe('cart payload checks', () => {
  it('accepts a fragments answer and keeps only its two fields', () => {
    const answer = {
      fragments: { 'div.widget_shopping_cart_content': '<div></div>' },
      cart_hash: 'h1',
      extra: 1,
    };
    expect(parseFragmentsAnswer(answer)).toEqual({ fragments: answer.fragments, cart_hash: 'h1' });
    expect(parseFragmentsAnswer({ fragments: {}, cart_hash: '' })).toEqual({ fragments: {}, cart_hash: '' });
  });

  it.each([
    ['null', null],
    ['a string', '{"fragments":{}}'],
    ['an array', []],
    ['no hash', { fragments: {} }],
    ['a numeric hash', { fragments: {}, cart_hash: 5 }],
    ['fragments as an array', { fragments: ['<div></div>'], cart_hash: 'h' }],
    ['a markup that is not a string', { fragments: { a: 1 }, cart_hash: 'h' }],
    ['null fragments', { fragments: null, cart_hash: 'h' }],
  ])('refuses %s', (_, value) => {
    expect(parseFragmentsAnswer(value)).toBeNull();
  });

  it('tells fragments from other JSON', () => {
    expect(isFragments({ a: '<b></b>' })).toBe(true);
    expect(isFragments({ a: null })).toBe(false);
    expect(isFragments('a')).toBe(false);
  });

  it('reads an API error and nothing else', () => {
    expect(parseErrorAnswer({ code: 'nonce_invalid', message: 'Expired.' })).toEqual({
      code: 'nonce_invalid',
      message: 'Expired.',
    });
    expect(parseErrorAnswer({ code: 'x' })).toBeNull();
    expect(parseErrorAnswer({ message: 'Expired.' })).toBeNull();
    expect(parseErrorAnswer({ code: 404, message: 'Expired.' })).toBeNull();
    expect(parseErrorAnswer([{ code: 'x', message: 'y' }])).toBeNull();
    expect(parseErrorAnswer(undefined)).toBeNull();
  });
});
