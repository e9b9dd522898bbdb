import { randomBytes } from 'node:crypto';
import type { DayRange } from '../../../shared/dates/dayRange';
import type { NewHit, OnlineEntry, StatsRecord, StatsReport } from '../../../shared/stats/statsTypes';
import { exclusionCounts } from '../exclusionCounts';
import type { StatsRepository } from '../ports';
import { queryNamed } from './namedQuery';
import { inTransaction, type PgPool } from './openPostgres';

const HIT = `INSERT INTO stats_hits (created_at, day, visitor_hash, page, page_type, page_id, search_query, referrer,
    referrer_host, source_type, source, browser, os, device_type)
  VALUES (@createdAt, @day, @visitorHash, @page, @pageType, @pageId, @searchQuery, @referrer, @referrerHost,
    @sourceType, @source, @browser, @os, @deviceType)`;
// The day's first hit of a visitor decides its source and entry page; later ones count and move last_seen.
const VISITOR = `INSERT INTO stats_visitors (day, visitor_hash, first_seen, last_seen, hits, browser, os, device_type,
    source_type, source, entry_page)
  VALUES (@day, @visitorHash, @createdAt, @createdAt, 1, @browser, @os, @deviceType, @sourceType, @source, @page)
  ON CONFLICT (day, visitor_hash) DO UPDATE SET hits = stats_visitors.hits + 1,
    last_seen = GREATEST(stats_visitors.last_seen, excluded.last_seen)`;
const EVENT = `INSERT INTO stats_events (created_at, day, visitor_hash, name, target_url, link_domain, link_path,
    file_name, file_ext, element_id, element_classes, element_text, mouse_button, page_id, shop_download, event_time)
  VALUES (@createdAt, @day, @visitorHash, @name, @targetUrl, @linkDomain, @linkPath, @fileName, @fileExt,
    @elementId, @elementClasses, @elementText, @mouseButton, @pageId, @shopDownload, @eventTime)`;
const EXCLUSION = `INSERT INTO stats_exclusion_days (day, reason, agent, hits) VALUES (@day, @reason, @agent, @hits)
  ON CONFLICT (day, reason, agent) DO UPDATE SET hits = stats_exclusion_days.hits + excluded.hits`;
const ONLINE = `INSERT INTO stats_online (visitor_hash, address_hash, page, first_seen, last_seen)
  VALUES (@visitorHash, @addressHash, @page, @firstSeen, @lastSeen)
  ON CONFLICT (visitor_hash) DO UPDATE SET page = excluded.page, address_hash = excluded.address_hash,
    last_seen = GREATEST(stats_online.last_seen, excluded.last_seen)`;
/** pg_advisory_xact_lock class of the online admission ('onln'), keyed by the address hash. */
const ONLINE_LOCK_CLASS = 0x6f6e6c6e;

function hitRow(hit: NewHit) {
  const { kind: _kind, ...row } = hit;
  return row;
}

export class PgStatsRepository implements StatsRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async daySalt(day: string): Promise<string> {
    // First writer wins across processes: every process hashes the day's visitors with the same salt.
    await this.#pool.query(
      'INSERT INTO stats_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING',
      [day, randomBytes(32).toString('base64url')],
    );
    return (await this.#pool.query('SELECT salt FROM stats_salts WHERE day = $1', [day])).rows[0]
      .salt as string;
  }

  async writeBatch(records: StatsRecord[]): Promise<void> {
    // One transaction for the whole batch; when this resolves, every record of it is committed.
    await inTransaction(this.#pool, async (client) => {
      for (const record of records) {
        if (record.kind === 'hit') {
          await queryNamed(client, HIT, hitRow(record));
          if (record.visitorHash !== null) await queryNamed(client, VISITOR, hitRow(record));
        } else if (record.kind === 'event') {
          const { kind: _kind, ...event } = record;
          await queryNamed(client, EVENT, { ...event, shopDownload: event.shopDownload ? 1 : 0 });
        }
      }
      for (const row of exclusionCounts(records)) await queryNamed(client, EXCLUSION, row);
    });
  }

  async writeOnline(entries: OnlineEntry[]): Promise<void> {
    await inTransaction(this.#pool, async (client) => {
      for (const entry of entries) await queryNamed(client, ONLINE, { ...entry });
    });
  }

  async admitOnline(entry: OnlineEntry, { since, perAddress }: { since: number; perAddress: number }) {
    return inTransaction(this.#pool, async (client) => {
      // Pings of one address take turns (READ COMMITTED alone would let two see room for one and both add).
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
        ONLINE_LOCK_CLASS,
        entry.addressHash,
      ]);
      const seen = await client.query('SELECT last_seen FROM stats_online WHERE visitor_hash = $1', [
        entry.visitorHash,
      ]);
      const lastSeen = seen.rows[0]?.last_seen as number | undefined;
      if (lastSeen === undefined || lastSeen < since) {
        const others = await client.query(
          `SELECT COUNT(*) AS n FROM stats_online WHERE address_hash = $1 AND last_seen >= $2 AND visitor_hash <> $3`,
          [entry.addressHash, since, entry.visitorHash],
        );
        if ((others.rows[0].n as number) >= perAddress) return false;
      }
      await queryNamed(client, ONLINE, { ...entry });
      return true;
    });
  }

  async countRequest(addressHash: string, minute: number): Promise<number> {
    // One statement: concurrent requests from several processes serialize on the row and each sees its own count.
    const { rows } = await this.#pool.query(
      `INSERT INTO stats_rate_limits (address_hash, minute, count) VALUES ($1, $2, 1)
       ON CONFLICT (address_hash, minute) DO UPDATE SET count = stats_rate_limits.count + 1 RETURNING count`,
      [addressHash, minute],
    );
    return rows[0].count as number;
  }

  async report(range: DayRange, { onlineSince }: { onlineSince: number }): Promise<StatsReport> {
    const days = { from: range.from, to: range.to };
    const all = <T extends object>(sql: string) => queryNamed<T>(this.#pool, sql, days);
    const one = async (sql: string) => (await queryNamed<{ n: number }>(this.#pool, sql, days))[0]?.n ?? 0;
    const [
      visitors,
      views,
      topPages,
      topReferrers,
      sources,
      online,
      events,
      topEventTargets,
      exclusions,
      bots,
    ] = await Promise.all([
      one('SELECT COUNT(*) AS n FROM stats_visitors WHERE day BETWEEN @from AND @to'),
      one('SELECT COUNT(*) AS n FROM stats_hits WHERE day BETWEEN @from AND @to'),
      all<StatsReport['topPages'][number]>(
        `SELECT page, COUNT(*) AS views FROM stats_hits WHERE day BETWEEN @from AND @to
           GROUP BY page ORDER BY views DESC, page LIMIT 10`,
      ),
      all<StatsReport['topReferrers'][number]>(
        `SELECT referrer_host AS host, COUNT(*) AS views FROM stats_hits
           WHERE day BETWEEN @from AND @to AND referrer_host != '' AND source_type != 'typein'
           GROUP BY referrer_host ORDER BY views DESC, host LIMIT 10`,
      ),
      all<StatsReport['sources'][number]>(
        `SELECT source_type AS "sourceType", COUNT(*) AS visitors FROM stats_visitors
           WHERE day BETWEEN @from AND @to GROUP BY source_type ORDER BY visitors DESC, "sourceType"`,
      ),
      this.#pool.query('SELECT COUNT(*) AS n FROM stats_online WHERE last_seen >= $1', [onlineSince]),
      all<StatsReport['events'][number]>(
        `SELECT name, COUNT(*) AS count FROM stats_events WHERE day BETWEEN @from AND @to
           GROUP BY name ORDER BY count DESC, name`,
      ),
      all<StatsReport['topEventTargets'][number]>(
        `SELECT name, target_url AS target, COUNT(*) AS count FROM stats_events WHERE day BETWEEN @from AND @to
           GROUP BY name, target_url ORDER BY count DESC, target LIMIT 10`,
      ),
      all<StatsReport['exclusions'][number]>(
        `SELECT reason, SUM(hits) AS count FROM stats_exclusion_days WHERE day BETWEEN @from AND @to
           GROUP BY reason ORDER BY count DESC, reason`,
      ),
      all<StatsReport['bots'][number]>(
        `SELECT agent, SUM(hits) AS count FROM stats_exclusion_days
           WHERE day BETWEEN @from AND @to AND reason = 'bot'
           GROUP BY agent ORDER BY count DESC, agent LIMIT 10`,
      ),
    ]);
    return {
      from: days.from,
      to: days.to,
      visitors,
      views,
      topPages,
      topReferrers,
      sources,
      onlineNow: online.rows[0].n as number,
      events,
      topEventTargets,
      exclusions,
      bots,
    };
  }

  async deleteBefore(day: string, options: { saltsBefore: string; onlineBefore: number }): Promise<void> {
    await inTransaction(this.#pool, async (client) => {
      for (const table of ['stats_hits', 'stats_visitors', 'stats_events'])
        await client.query(`DELETE FROM ${table} WHERE day < $1`, [day]);
      await client.query('DELETE FROM stats_salts WHERE day < $1', [options.saltsBefore]);
      await client.query('DELETE FROM stats_online WHERE last_seen < $1', [options.onlineBefore]);
      await client.query('DELETE FROM stats_rate_limits WHERE minute < $1', [
        Math.floor(options.onlineBefore / 60_000),
      ]);
    });
  }
}
