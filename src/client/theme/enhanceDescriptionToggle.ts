/** the description's hide/show animation takes 250 ms. */
const DESCRIPTION_TOGGLE_MS = 250;

/**
 * The product description's hide/show toggle: the section heading becomes a disclosure button (WAI-ARIA
 * disclosure pattern) that folds the description away and back with a 250 ms height animation. Without
 * JavaScript the description is simply shown.
 */
export function enhanceDescriptionToggle(document: Document): void {
  const view = document.defaultView;
  for (const section of document.querySelectorAll<HTMLElement>('[data-description-toggle]')) {
    const heading = section.querySelector<HTMLElement>('h2');
    const content = section.querySelector<HTMLElement>('.product__description-content');
    if (!heading || !content?.id || heading.querySelector('button')) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'description-toggle';
    button.setAttribute('aria-expanded', 'true');
    button.setAttribute('aria-controls', content.id);
    button.append(...heading.childNodes);
    heading.append(button);

    const reduced = () => view?.matchMedia('(prefers-reduced-motion: reduce)').matches ?? true;
    button.addEventListener('click', () => {
      const expand = button.getAttribute('aria-expanded') !== 'true';
      button.setAttribute('aria-expanded', String(expand));
      content.getAnimations().forEach((animation) => {
        animation.cancel();
      });
      if (expand) content.hidden = false;
      const height = `${content.scrollHeight}px`;
      const frames = expand
        ? [
            { height: '0px', opacity: 0 },
            { height, opacity: 1 },
          ]
        : [
            { height, opacity: 1 },
            { height: '0px', opacity: 0 },
          ];
      const animation = content.animate(frames, {
        duration: reduced() ? 0 : DESCRIPTION_TOGGLE_MS,
        easing: 'ease-in-out',
      });
      content.style.overflow = 'hidden';
      animation.onfinish = () => {
        content.style.overflow = '';
        if (!expand) content.hidden = true;
      };
    });
  }
}
