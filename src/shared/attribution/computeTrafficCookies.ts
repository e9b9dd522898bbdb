import { classifySource, directSource, NONE, type SourceData } from './classifySource';
import {
  decodeCookieValue,
  encodeCookieValue,
  FIELD_DELIMITER,
  packFields,
  unpackFields,
} from './cookieCodec';
import { hostOf } from './parseUri';

/*
 * The attribution cookies one page view creates or refreshes, computed the way sourcebuster.js
 * does, as a pure function of the cookies present and the visit: the browser applies the writes, the differential
 * test compares them with the library's.
 */

/** docs/contract.md "Cookies and storage" names. */
export const COOKIE = {
  current: 'sbjs_current',
  currentExtra: 'sbjs_current_extra',
  first: 'sbjs_first',
  firstExtra: 'sbjs_first_extra',
  session: 'sbjs_session',
  udata: 'sbjs_udata',
  promo: 'sbjs_promo',
  migrations: 'sbjs_migrations',
} as const;

export const ATTRIBUTION_COOKIES: readonly string[] = Object.values(COOKIE);

/** The library (and WooCommerce) name the two extra cookies `_add`; a migrating shop's visitors still have those. */
export const LEGACY_COOKIE: Readonly<Record<string, string>> = {
  [COOKIE.currentExtra]: 'sbjs_current_add',
  [COOKIE.firstExtra]: 'sbjs_first_add',
};

/** The library's one migration (its old single-pipe delimiter); a cookie naming it says it has run. */
const MIGRATION_ID = '1418474375998';

export interface Visit {
  /** location.href */
  href: string;
  /** location.hostname */
  hostname: string;
  /** location.search, with its `?` */
  search: string;
  referrer: string;
  userAgent: string;
  now: Date;
}

interface TrafficOptions {
  lifetimeMonths: number;
  sessionMinutes: number;
  cookieDomain: string | null;
  base64: boolean;
  /** A number in [0, 1) (Math.random), for the promo code. */
  random: () => number;
}

interface CookieWrite {
  name: string;
  /** The raw value for document.cookie (encoded, maybe base64). */
  value: string;
  /** Lifetime in minutes. */
  minutes: number;
}

interface TrafficResult {
  writes: CookieWrite[];
  /** Every attribution cookie after the writes, decoded into fields (the library's `sbjs.get`). */
  data: TrafficData;
}

export interface TrafficData {
  current: Record<string, string>;
  currentExtra: Record<string, string>;
  first: Record<string, string>;
  firstExtra: Record<string, string>;
  session: Record<string, string>;
  udata: Record<string, string>;
  promo: Record<string, string>;
}

/** `raw` holds the cookies present (name → raw value as in document.cookie). */
export function computeTrafficCookies(
  raw: ReadonlyMap<string, string>,
  visit: Visit,
  options: TrafficOptions,
): TrafficResult {
  const jar = new Map<string, string>();
  for (const [name, value] of raw) jar.set(name, value);
  const writes = new Map<string, CookieWrite>();
  const lifetime = Math.trunc(options.lifetimeMonths * 30 * 24 * 60);
  const sessionLength = Math.trunc(options.sessionMinutes);
  const get = (name: string): string | null => {
    const value = jar.get(name);
    return value === undefined ? null : decodeCookieValue(value);
  };
  const set = (name: string, value: string, minutes: number) => {
    const encoded = encodeCookieValue(value, options.base64);
    jar.set(name, encoded);
    writes.set(name, { name, value: encoded, minutes });
  };

  // A WooCommerce visitor's `_add` cookies carry over to our names.
  for (const [name, legacy] of Object.entries(LEGACY_COOKIE)) {
    const legacyValue = jar.get(legacy);
    if (!jar.has(name) && legacyValue !== undefined) set(name, decodeCookieValue(legacyValue), lifetime);
  }

  migrate(get, set, lifetime, visit);

  const extra = () =>
    packFields([
      ['fd', formatUtc(visit.now)],
      ['ep', visit.href],
      ['rf', visit.referrer || NONE],
    ]);
  const setExtras = () => {
    set(COOKIE.currentExtra, extra(), lifetime);
    if (!get(COOKIE.firstExtra)) set(COOKIE.firstExtra, extra(), lifetime);
  };

  const siteHost = options.cookieDomain || hostOf(visit.hostname);
  const found = classifySource({
    query: visit.search.replace(/^\?/, ''),
    referrer: visit.referrer,
    siteHost,
    hasSession: get(COOKIE.session) !== null,
  });
  let current: string;
  if (found) {
    setExtras();
    current = packSource(found);
  } else if (!get(COOKIE.first) && !get(COOKIE.current)) {
    setExtras();
    current = packSource(directSource());
  } else {
    // An internal page view keeps its source; the write only pushes the expiry forward. (A deleted current cookie
    // takes the first one's value, where the library would write the text `null`.)
    current = get(COOKIE.current) ?? get(COOKIE.first) ?? '';
  }
  set(COOKIE.current, current, lifetime);
  if (!get(COOKIE.first)) set(COOKIE.first, get(COOKIE.current) ?? '', lifetime);

  const hadSession = get(COOKIE.session) !== null;
  const udata = get(COOKIE.udata);
  let visits = 1;
  if (udata) {
    visits = Number.parseInt(unpackFields(udata).vst ?? '', 10) || 1;
    if (!hadSession) visits += 1;
  }
  set(
    COOKIE.udata,
    packFields([
      ['vst', visits],
      ['uip', NONE],
      ['uag', visit.userAgent],
    ]),
    lifetime,
  );

  let pages = 1;
  if (hadSession) pages = (Number.parseInt(unpackFields(get(COOKIE.session)).pgs ?? '', 10) || 1) + 1;
  set(
    COOKIE.session,
    packFields([
      ['pgs', pages],
      ['cpg', visit.href],
    ]),
    sessionLength,
  );

  if (!get(COOKIE.promo)) {
    // a random promo code from 100000 to 999999.
    const code = Math.floor(options.random() * (999999 - 100000 + 1)) + 100000;
    set(COOKIE.promo, packFields([['code', code]]), lifetime);
  }

  return { writes: [...writes.values()], data: readTrafficData(jar) };
}

/** Every attribution cookie decoded into fields; the `_add` names are read when ours are absent. */
export function readTrafficData(raw: ReadonlyMap<string, string>): TrafficData {
  const read = (name: string) => {
    const value = raw.get(name) ?? (LEGACY_COOKIE[name] ? raw.get(LEGACY_COOKIE[name]) : undefined);
    return unpackFields(value === undefined ? null : decodeCookieValue(value));
  };
  return {
    current: read(COOKIE.current),
    currentExtra: read(COOKIE.currentExtra),
    first: read(COOKIE.first),
    firstExtra: read(COOKIE.firstExtra),
    session: read(COOKIE.session),
    udata: read(COOKIE.udata),
    promo: read(COOKIE.promo),
  };
}

function packSource(data: SourceData): string {
  return packFields([
    ['typ', data.type],
    ['src', data.source],
    ['mdm', data.medium],
    ['cmp', data.campaign],
    ['cnt', data.content],
    ['trm', data.term],
    ['id', data.id],
    ['plt', data.platform],
    ['fmt', data.format],
    ['tct', data.tactic],
  ]);
}

/**
 * The library's migration: a visitor with cookies but no migrations cookie has the old single-pipe delimiter,
 * rewritten once; a new visitor just gets the migrations cookie.
 */
function migrate(
  get: (name: string) => string | null,
  set: (name: string, value: string, minutes: number) => void,
  lifetime: number,
  visit: Visit,
) {
  if (get(COOKIE.migrations)) return;
  if (get(COOKIE.first)) {
    const containers = [
      COOKIE.current,
      COOKIE.currentExtra,
      COOKIE.first,
      COOKIE.firstExtra,
      COOKIE.session,
      COOKIE.udata,
      COOKIE.promo,
    ];
    for (const name of containers) {
      const value = get(name);
      if (value)
        set(
          name,
          value.replace(/(\|)?\|(\|)?/g, (all, before, after) => (before || after ? all : FIELD_DELIMITER)),
          lifetime,
        );
    }
    if (get(COOKIE.session))
      set(
        COOKIE.session,
        packFields([
          ['pgs', 0],
          ['cpg', visit.href],
        ]),
        lifetime,
      );
  }
  set(COOKIE.migrations, `${MIGRATION_ID}=1`, lifetime);
}

/** The first-visit date as the library writes it with WooCommerce's time zone offset 0: `YYYY-MM-DD hh:mm:ss` UTC. */
function formatUtc(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}
