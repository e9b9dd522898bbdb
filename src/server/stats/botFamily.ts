/*
 * A bot hit is kept only as a count per day and family. The families are a fixed list, matched as text in the user
 * agent, so a flood of made-up user agents adds to "other" instead of adding rows.
 */
const FAMILIES = [
  'googlebot',
  'bingbot',
  'yandexbot',
  'baiduspider',
  'duckduckbot',
  'applebot',
  'slurp',
  'facebookexternalhit',
  'twitterbot',
  'linkedinbot',
  'ahrefsbot',
  'semrushbot',
  'mj12bot',
  'dotbot',
  'petalbot',
  'bytespider',
  'gptbot',
  'claudebot',
  'ccbot',
  'amazonbot',
  'headlesschrome',
  'curl',
  'wget',
  'python',
  'go-http-client',
] as const;

export function botFamilyOf(userAgent: string): string {
  const text = userAgent.toLowerCase();
  return FAMILIES.find((family) => text.includes(family)) ?? 'other';
}
