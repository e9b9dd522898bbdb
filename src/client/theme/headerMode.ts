export type HeaderMode = 'breakpoint' | 'desktop';

/**
 * the header is in breakpoint mode below the configured break point and in desktop mode from it on.
 * docs/contract.md: the same width is where "small screens" and "mobile" begin.
 */
export function headerMode(viewportWidth: number, breakpoint: number): HeaderMode {
  return viewportWidth < breakpoint ? 'breakpoint' : 'desktop';
}
