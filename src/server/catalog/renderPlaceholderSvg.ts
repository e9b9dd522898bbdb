import type { ImagePlaceholder } from '../db/ports';

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Draws a square product image: the colour, a soft shape and the product's initials, as a small SVG. */
export function renderPlaceholderSvg({ label, color }: ImagePlaceholder): string {
  const initials =
    label
      .split(/\s+/)
      .filter((word) => /^[\p{L}\p{N}]/u.test(word))
      .slice(0, 2)
      .map((word) => word[0]?.toUpperCase())
      .join('') || '?';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600" width="600" height="600" role="img" aria-label="${escapeXml(label)}">
<rect width="600" height="600" fill="${escapeXml(color)}"/>
<circle cx="300" cy="270" r="170" fill="#fff" fill-opacity=".18"/>
<text x="300" y="325" text-anchor="middle" font-family="system-ui,sans-serif" font-size="150" font-weight="600" fill="#fff" fill-opacity=".92">${escapeXml(initials)}</text>
<text x="300" y="540" text-anchor="middle" font-family="system-ui,sans-serif" font-size="34" fill="#fff" fill-opacity=".85">${escapeXml(label.slice(0, 32))}</text>
</svg>`;
}
