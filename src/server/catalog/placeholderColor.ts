/*
 * Product images never load from an external host: each image is drawn locally as an SVG placeholder. Its colour
 * comes from a colour word in the original file name (hoodie-blue-1.jpg is blue), else from the product's name.
 */

const NAMED_COLORS: Record<string, string> = {
  black: '#2b2b2b',
  white: '#f1f1ee',
  gray: '#8d8f94',
  grey: '#8d8f94',
  red: '#c0392b',
  green: '#3f8f5b',
  blue: '#2f6fb3',
  yellow: '#e5b526',
  orange: '#e07b2a',
  purple: '#7d4fa3',
  pink: '#e48aa8',
  brown: '#8a5a3b',
  navy: '#1f3a5f',
  beige: '#d8c8a8',
  sage: '#9caf88',
  olive: '#7a7f3a',
  teal: '#2a8c8c',
  cream: '#efe6cf',
  charcoal: '#3b3f45',
  rust: '#b4532a',
  mustard: '#d6a429',
  terracotta: '#c86b4a',
  oat: '#d9cbb0',
  natural: '#e3d7bf',
};

export function placeholderColor(sourceUrl: string, productName: string): string {
  const fileName = sourceUrl.split('/').pop()?.toLowerCase() ?? '';
  for (const word of fileName.split(/[^a-z]+/)) {
    const color = NAMED_COLORS[word];
    if (color) return color;
  }
  return colorFromText(productName);
}

/** A stable, pleasant colour for a name: the hue from a string hash, muted saturation and lightness. */
function colorFromText(text: string): string {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360} 38% 56%)`;
}
