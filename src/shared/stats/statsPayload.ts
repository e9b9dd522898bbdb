/** The signed parameters the server writes into each page (docs/contract.md "Tracker hit"). */
export const HIT_PARAM_NAMES = ['source_type', 'source_id', 'search_query', 'signature'] as const;
export type HitParams = Record<(typeof HIT_PARAM_NAMES)[number], string>;

/** docs/contract.md "Events". */
export const EVENT_NAMES = ['file_download', 'outbound_link'] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export const EVENT_FIELDS = [
  'en',
  'et',
  'eid',
  'ec',
  'ev',
  'mb',
  'fn',
  'fx',
  'm',
  'tu',
  'pid',
  'wcdl',
  'df',
  'dk',
] as const;
export type EventFields = Record<(typeof EVENT_FIELDS)[number], string>;

/** pings stop after 30 minutes without click, keypress or scroll. */
export const IDLE_STOP_MS = 1_800_000;
