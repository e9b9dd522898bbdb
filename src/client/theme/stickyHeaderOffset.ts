/** The height the sticky header covers at the top of the viewport (0 when the header does not stick). */
export function stickyHeaderOffset(document: Document): number {
  const header = document.querySelector<HTMLElement>('.site-header');
  const view = document.defaultView;
  if (!header || !view || view.getComputedStyle(header).position !== 'sticky') return 0;
  return header.getBoundingClientRect().height;
}
