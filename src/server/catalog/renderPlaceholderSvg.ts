import type { ImagePlaceholder } from '../db/ports';

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Dark ink on a pale ground: readable whatever the product's colour (which only tints the ground and a band). */
const INK = '#1f2328';
const MUTED = '#57606a';
const GROUND = '#f6f5f1';

/**
 * Draws a square stand-in for a product image that is not there: clearly a placeholder (a picture outline and "No
 * image"), tinted by the product's colour, with its initials and name in dark ink, as a small SVG.
 */
export function renderPlaceholderSvg({ label, color }: ImagePlaceholder): string {
  const initials =
    label
      .split(/\s+/)
      .filter((word) => /^[\p{L}\p{N}]/u.test(word))
      .slice(0, 2)
      .map((word) => word[0]?.toUpperCase())
      .join('') || '?';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600" width="600" height="600" role="img" aria-label="${escapeXml(`${label}: no image`)}">
<rect width="600" height="600" fill="${GROUND}"/>
<rect width="600" height="600" fill="${escapeXml(color)}" fill-opacity=".22"/>
<rect y="560" width="600" height="40" fill="${escapeXml(color)}"/>
<g fill="none" stroke="${MUTED}" stroke-width="6" stroke-linejoin="round"><rect x="250" y="70" width="100" height="76" rx="8"/><path d="M256 140l30-32 22 22 14-14 28 24"/><circle cx="324" cy="94" r="8"/></g>
<text x="300" y="185" text-anchor="middle" font-family="system-ui,sans-serif" font-size="26" fill="${MUTED}">No image</text>
<text x="300" y="380" text-anchor="middle" font-family="system-ui,sans-serif" font-size="150" font-weight="700" fill="${INK}">${escapeXml(initials)}</text>
<text x="300" y="480" text-anchor="middle" font-family="system-ui,sans-serif" font-size="34" fill="${INK}">${escapeXml(label.slice(0, 32))}</text>
</svg>`;
}
