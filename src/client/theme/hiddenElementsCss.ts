import type { PageSettings } from '../../shared/settings/settingsSchema';

/** A CSS identifier with every character outside [A-Za-z0-9_-] escaped, so no class name can break out of the rule. */
function escapeIdentifier(name: string): string {
  const escaped = Array.from(name, (char) =>
    /[A-Za-z0-9_-]/.test(char) ? char : `\\${char.codePointAt(0)?.toString(16)} `,
  ).join('');
  // An identifier may not start with a digit (or a hyphen and a digit).
  return /^-?[0-9]/.test(escaped) ? escaped.replace(/[0-9]/, (digit) => `\\3${digit} `) : escaped;
}

/**
 * The element-hiding data as a style sheet for the page of one object (product or page id): every
 * listed class of that object is hidden. Rendered by the server so nothing flashes before it applies.
 */
export function hiddenElementsCss(
  hiddenElements: PageSettings['theme']['hiddenElements'],
  objectId: number | null | undefined,
): string {
  if (objectId === null || objectId === undefined) return '';
  const selectors = hiddenElements
    .filter((entry) => String(entry.objectId) === String(objectId))
    .flatMap((entry) => entry.classNames)
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map((name) => `.${escapeIdentifier(name)}`);
  if (selectors.length === 0) return '';
  return `${[...new Set(selectors)].join(',')}{display:none!important}`;
}
