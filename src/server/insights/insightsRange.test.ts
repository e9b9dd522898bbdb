import { describe, expect, it } from 'vitest';
import { rangeQuery, rangeSearch, resolveRange } from './insightsRange';
import { toCsv } from './toCsv';

const NOW = Date.parse('2026-03-10T15:00:00Z');
const resolve = (query: Record<string, string>) => resolveRange(rangeQuery.parse(query), NOW);

describe('the shared date range', () => {
  it('presets end today and span 7, 30 or 90 days; 30 is the default', () => {
    expect(resolve({ range: '7' })).toEqual({ preset: '7', from: '2026-03-04', to: '2026-03-10' });
    expect(resolve({})).toEqual({ preset: '30', from: '2026-02-09', to: '2026-03-10' });
    expect(resolve({ range: '90' }).from).toBe('2025-12-11');
  });

  it('a custom range is clamped to today, and refused backwards or over 400 days', () => {
    expect(resolve({ range: 'custom', from: '2026-03-01', to: '2026-04-01' })).toEqual({
      preset: 'custom',
      from: '2026-03-01',
      to: '2026-03-10',
    });
    expect(() => resolve({ range: 'custom', from: '2026-03-05', to: '2026-03-01' })).toThrow(/after it ends/);
    expect(() => resolve({ range: 'custom', from: '2024-01-01', to: '2026-03-01' })).toThrow(/at most 400/);
    expect(() => rangeQuery.parse({ range: 'custom', from: '1 March' })).toThrow();
  });

  it('round-trips through the query string links keep', () => {
    const queries: Record<string, string>[] = [
      { range: '7' },
      { range: 'custom', from: '2026-02-01', to: '2026-02-03' },
    ];
    for (const query of queries) {
      const range = resolve(query);
      expect(resolve(Object.fromEntries(new URLSearchParams(rangeSearch(range))))).toEqual(range);
    }
  });
});

describe('toCsv', () => {
  it('quotes separators and quotes, keeps numbers, defuses formulas', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 3],
          ['say "hi"', null],
          ['-1+2', 0.5],
          ['@SUM(A1)', 1],
        ],
      ),
    ).toBe('a,b\r\n"x,y",3\r\n"say ""hi""",\r\n\'-1+2,0.5\r\n\'@SUM(A1),1\r\n');
  });
});
