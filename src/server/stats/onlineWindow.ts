/**
 * "Online now" counts visitors whose last ping is within this window: two ping intervals (`stats.jsCheckTime`),
 * so one late ping does not drop a visitor, and never under 2 minutes. The one definition the ingestion, its
 * retention, the owner's report and the insights page share.
 */
export function onlineWindowMs(jsCheckTime: number): number {
  return Math.max(2 * jsCheckTime, 120_000);
}
