import { escapeRegExp, hostOf, parseUri, type QueryValue, queryText, readQuery } from './parseUri';

/*
 * Where a visit came from, decided as sourcebuster.js decides it: utm (campaign
 * parameters, gclid or yclid), organic (a known search engine), referral (another site, when no session is
 * running), typein (direct). One home for this rule: the browser's attribution cookies and the server's visit
 * statistics both call it.
 */

export type SourceType = 'utm' | 'organic' | 'referral' | 'typein';

export interface SourceData {
  type: SourceType;
  source: string;
  medium: string;
  campaign: string;
  content: string;
  term: string;
  /** WooCommerce's additions to the library: utm_id, utm_source_platform, utm_creative_format, utm_marketing_tactic. */
  id: string;
  platform: string;
  format: string;
  tactic: string;
}

export const NONE = '(none)';
const DIRECT = { source: '(direct)', medium: '(none)' } as const;

/** the search engines recognized (google and yandex have their own rules, below). */
const ORGANICS = [
  { host: 'bing.com', param: 'q', display: 'bing' },
  { host: 'yahoo.com', param: 'p', display: 'yahoo' },
  { host: 'about.com', param: 'q', display: 'about' },
  { host: 'aol.com', param: 'q', display: 'aol' },
  { host: 'ask.com', param: 'q', display: 'ask' },
  { host: 'globososo.com', param: 'q', display: 'globo' },
  { host: 'go.mail.ru', param: 'q', display: 'go.mail.ru' },
  { host: 'rambler.ru', param: 'query', display: 'rambler' },
  { host: 'tut.by', param: 'query', display: 'tut.by' },
] as const;

/** Twitter's short link is a referral from twitter.com. */
const REFERRALS = [
  { host: 't.co', display: 'twitter.com' },
  { host: 'plus.url.google.com', display: 'plus.google.com' },
] as const;

const UTM_TRIGGERS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'gclid',
  'yclid',
];
/** WooCommerce's copy of the library also starts a utm visit on these. */
const EXTRA_UTM_TRIGGERS = ['utm_id', 'utm_source_platform', 'utm_creative_format', 'utm_marketing_tactic'];

interface VisitContext {
  /** The page's query string without `?` (location.search). */
  query: string;
  referrer: string;
  /** The shop's own host (the cookie domain, or the page's hostname): referrers from it are internal. */
  siteHost: string;
  /** An attribution session is running (sbjs_session exists): a referral then does not start a new source. */
  hasSession: boolean;
}

/** The new source of this visit, or null when the visit keeps the source it had (an internal or same-session one). */
export function classifySource(visit: VisitContext): SourceData | null {
  const params = readQuery(visit.query);
  const has = (name: string) => params.get(name) !== undefined;
  if ([...UTM_TRIGGERS, ...EXTRA_UTM_TRIGGERS].some(has)) return utmSource(params, visit.referrer);
  const referrer = visit.referrer;
  if (referrer && isExternal(referrer, visit.siteHost)) {
    const engine = organicEngine(referrer);
    if (engine) return { ...blank('organic'), source: engine, medium: 'organic' };
    if (!visit.hasSession) {
      const known = REFERRALS.find((each) => hostMatches(parseUri(referrer).host, each.host));
      return {
        ...blank('referral'),
        source: known ? known.display : hostOf(referrer),
        medium: 'referral',
        content: parseUri(referrer).path,
      };
    }
  }
  return null;
}

/** A visit with no new source and no stored one: direct. */
export function directSource(): SourceData {
  return { ...blank('typein'), source: DIRECT.source, medium: DIRECT.medium };
}

function blank(type: SourceType): SourceData {
  return {
    type,
    source: NONE,
    medium: NONE,
    campaign: NONE,
    content: NONE,
    term: NONE,
    id: NONE,
    platform: NONE,
    format: NONE,
    tactic: NONE,
  };
}

function utmSource(params: Map<string, QueryValue>, referrer: string): SourceData {
  const value = (name: string) => params.get(name);
  const text = (name: string) => {
    const raw = value(name);
    return raw === undefined ? undefined : queryText(raw);
  };
  // WooCommerce's copy of the library: a parameter present with an empty value (`utm_content=`) is kept empty for
  // source, medium, campaign, content and term; its four added parameters fall back to `(none)` when empty.
  const orNone = (raw: string | undefined) => raw || NONE;
  const gclid = value('gclid') !== undefined;
  const yclid = value('yclid') !== undefined;
  return {
    type: 'utm',
    source: text('utm_source') ?? (gclid ? 'google' : yclid ? 'yandex' : NONE),
    medium: text('utm_medium') ?? (gclid || yclid ? 'cpc' : NONE),
    campaign: text('utm_campaign') ?? (gclid ? 'google_cpc' : yclid ? 'yandex_cpc' : NONE),
    content: text('utm_content') ?? NONE,
    term: text('utm_term') ?? orNone(yandexSearchText(referrer)),
    id: orNone(text('utm_id')),
    platform: orNone(text('utm_source_platform')),
    format: orNone(text('utm_creative_format')),
    tactic: orNone(text('utm_marketing_tactic')),
  };
}

/** A utm visit from Yandex without utm_term takes the search text from the referrer, as the library does. */
function yandexSearchText(referrer: string): string | undefined {
  if (!referrer) return undefined;
  const { host, query } = parseUri(referrer);
  if (!host || !/^(?:.*\.)?yandex\..{2,9}$/i.test(host)) return undefined;
  const text = readQuery(query).get('text');
  return text === undefined ? undefined : queryText(text);
}

function isExternal(referrer: string, siteHost: string): boolean {
  return !new RegExp(`^(?:.*\\.)?${escapeRegExp(siteHost)}$`, 'i').test(hostOf(referrer));
}

function hostMatches(host: string, known: string): boolean {
  return new RegExp(`^(?:.*\\.)?${escapeRegExp(known)}$`, 'i').test(host);
}

/** The search engine a referrer is from, or null. Google counts without a query: it no longer sends one. */
function organicEngine(referrer: string): string | null {
  const { host, query } = parseUri(referrer);
  if (query && /^(?:.*\.)?yandex\..{2,9}$/.test(host) && /.*text=.*/.test(query)) return 'yandex';
  if (/^(?:www\.)?google\..{2,9}$/.test(host)) return 'google';
  if (!query) return null;
  const engine = ORGANICS.find(
    (each) => hostMatches(host, each.host) && new RegExp(`.*${escapeRegExp(each.param)}=.*`, 'i').test(query),
  );
  return engine?.display ?? null;
}
