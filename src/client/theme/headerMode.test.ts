import { describe, expect, it } from 'vitest';
import { headerMode } from './headerMode';

describe('headerMode', () => {
  it('is breakpoint mode below the configured width and desktop mode from it on', () => {
    expect(headerMode(991, 992)).toBe('breakpoint');
    expect(headerMode(992, 992)).toBe('desktop');
    expect(headerMode(1280, 992)).toBe('desktop');
    expect(headerMode(320, 992)).toBe('breakpoint');
  });

  it('follows whatever break point is configured', () => {
    expect(headerMode(700, 600)).toBe('desktop');
    expect(headerMode(599, 600)).toBe('breakpoint');
  });
});
