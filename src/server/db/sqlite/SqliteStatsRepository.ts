import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { DayRange } from '../../../shared/dates/dayRange';
import type { NewHit, OnlineEntry, StatsRecord, StatsReport } from '../../../shared/stats/statsTypes';
import { exclusionCounts } from '../exclusionCounts';
import type { StatsRepository } from '../ports';
import { writeWhenFree } from './withoutBusyWait';

export class SqliteStatsRepository implements StatsRepository {
  #db: Database.Database;
  #statements: ReturnType<typeof prepare>;
  #writeBatch: Database.Transaction<(records: StatsRecord[]) => void>;
  #admitOnline: Database.Transaction<
    (entry: OnlineEntry, options: { since: number; perAddress: number }) => boolean
  >;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#statements = prepare(db);
    const statements = this.#statements;
    this.#writeBatch = db.transaction((records: StatsRecord[]) => {
      for (const record of records) {
        if (record.kind === 'hit') {
          statements.hit.run(hitRow(record));
          if (record.visitorHash !== null) statements.visitor.run(hitRow(record));
        } else if (record.kind === 'event') {
          const { kind: _kind, ...event } = record;
          statements.event.run({ ...event, shopDownload: event.shopDownload ? 1 : 0 });
        }
      }
      for (const row of exclusionCounts(records)) statements.exclusion.run(row);
    });
    this.#admitOnline = db.transaction(
      (entry: OnlineEntry, { since, perAddress }: { since: number; perAddress: number }) => {
        const seen = db
          .prepare('SELECT last_seen FROM stats_online WHERE visitor_hash = ?')
          .pluck()
          .get(entry.visitorHash) as number | undefined;
        if (seen === undefined || seen < since) {
          const others = db
            .prepare(
              'SELECT COUNT(*) FROM stats_online WHERE address_hash = ? AND last_seen >= ? AND visitor_hash <> ?',
            )
            .pluck()
            .get(entry.addressHash, since, entry.visitorHash) as number;
          if (others >= perAddress) return false;
        }
        this.#statements.online.run(entry);
        return true;
      },
    );
  }

  async daySalt(day: string): Promise<string> {
    // Waits out an import without holding the process (writeWhenFree).
    await writeWhenFree(this.#db, () =>
      this.#db
        .prepare('INSERT OR IGNORE INTO stats_salts (day, salt) VALUES (?, ?)')
        .run(day, randomBytes(32).toString('base64url')),
    );
    return this.#db.prepare('SELECT salt FROM stats_salts WHERE day = ?').pluck().get(day) as string;
  }

  async writeBatch(records: StatsRecord[]): Promise<void> {
    // One transaction for the whole batch; when this returns, every record of it is committed. A busy database is
    // waited out without holding the process (writeWhenFree), and the group commit tries a failed batch again.
    await writeWhenFree(this.#db, () => this.#writeBatch.immediate(records));
  }

  async writeOnline(entries: OnlineEntry[]): Promise<void> {
    this.#db.transaction(() => {
      for (const entry of entries) this.#statements.online.run(entry);
    })();
  }

  async admitOnline(entry: OnlineEntry, options: { since: number; perAddress: number }): Promise<boolean> {
    // IMMEDIATE: the write lock is taken before the count, so another connection cannot add to it meanwhile.
    return this.#admitOnline.immediate(entry, options);
  }

  async countRequest(addressHash: string, minute: number): Promise<number> {
    return writeWhenFree(this.#db, () => this.#statements.countRequest.get(addressHash, minute) as number);
  }

  async report(range: DayRange, { onlineSince }: { onlineSince: number }): Promise<StatsReport> {
    const days = { from: range.from, to: range.to };
    const all = <T>(sql: string, extra: Record<string, unknown> = {}) =>
      this.#db.prepare(sql).all({ ...days, ...extra }) as T[];
    const one = (sql: string) => this.#db.prepare(sql).pluck().get(days) as number;
    return {
      from: days.from,
      to: days.to,
      visitors: one('SELECT COUNT(*) FROM stats_visitors WHERE day BETWEEN @from AND @to'),
      views: one('SELECT COUNT(*) FROM stats_hits WHERE day BETWEEN @from AND @to'),
      topPages: all(
        `SELECT page, COUNT(*) AS views FROM stats_hits WHERE day BETWEEN @from AND @to
         GROUP BY page ORDER BY views DESC, page LIMIT 10`,
      ),
      topReferrers: all(
        `SELECT referrer_host AS host, COUNT(*) AS views FROM stats_hits
         WHERE day BETWEEN @from AND @to AND referrer_host != '' AND source_type != 'typein'
         GROUP BY referrer_host ORDER BY views DESC, host LIMIT 10`,
      ),
      sources: all(
        `SELECT source_type AS sourceType, COUNT(*) AS visitors FROM stats_visitors
         WHERE day BETWEEN @from AND @to GROUP BY source_type ORDER BY visitors DESC, sourceType`,
      ),
      onlineNow: this.#db
        .prepare('SELECT COUNT(*) FROM stats_online WHERE last_seen >= ?')
        .pluck()
        .get(onlineSince) as number,
      events: all(
        `SELECT name, COUNT(*) AS count FROM stats_events WHERE day BETWEEN @from AND @to
         GROUP BY name ORDER BY count DESC, name`,
      ),
      topEventTargets: all(
        `SELECT name, target_url AS target, COUNT(*) AS count FROM stats_events WHERE day BETWEEN @from AND @to
         GROUP BY name, target_url ORDER BY count DESC, target LIMIT 10`,
      ),
      exclusions: all(
        `SELECT reason, SUM(hits) AS count FROM stats_exclusion_days WHERE day BETWEEN @from AND @to
         GROUP BY reason ORDER BY count DESC, reason`,
      ),
      bots: all(
        `SELECT agent, SUM(hits) AS count FROM stats_exclusion_days WHERE day BETWEEN @from AND @to AND reason = 'bot'
         GROUP BY agent ORDER BY count DESC, agent LIMIT 10`,
      ),
    };
  }

  async deleteBefore(day: string, options: { saltsBefore: string; onlineBefore: number }): Promise<void> {
    this.#db.transaction(() => {
      for (const table of ['stats_hits', 'stats_visitors', 'stats_events'])
        this.#db.prepare(`DELETE FROM ${table} WHERE day < ?`).run(day);
      this.#db.prepare('DELETE FROM stats_salts WHERE day < ?').run(options.saltsBefore);
      this.#db.prepare('DELETE FROM stats_online WHERE last_seen < ?').run(options.onlineBefore);
      this.#db
        .prepare('DELETE FROM stats_rate_limits WHERE minute < ?')
        .run(Math.floor(options.onlineBefore / 60_000));
    })();
  }
}

function hitRow(hit: NewHit) {
  const { kind: _kind, ...row } = hit;
  return row;
}

function prepare(db: Database.Database) {
  return {
    hit: db.prepare(
      `INSERT INTO stats_hits (created_at, day, visitor_hash, page, page_type, page_id, search_query, referrer,
         referrer_host, source_type, source, browser, os, device_type)
       VALUES (@createdAt, @day, @visitorHash, @page, @pageType, @pageId, @searchQuery, @referrer, @referrerHost,
         @sourceType, @source, @browser, @os, @deviceType)`,
    ),
    // The day's first hit of a visitor decides its source and entry page; later ones count and move last_seen.
    visitor: db.prepare(
      `INSERT INTO stats_visitors (day, visitor_hash, first_seen, last_seen, hits, browser, os, device_type,
         source_type, source, entry_page)
       VALUES (@day, @visitorHash, @createdAt, @createdAt, 1, @browser, @os, @deviceType, @sourceType, @source, @page)
       ON CONFLICT (day, visitor_hash) DO UPDATE SET hits = hits + 1, last_seen = MAX(last_seen, excluded.last_seen)`,
    ),
    event: db.prepare(
      `INSERT INTO stats_events (created_at, day, visitor_hash, name, target_url, link_domain, link_path, file_name,
         file_ext, element_id, element_classes, element_text, mouse_button, page_id, shop_download, event_time)
       VALUES (@createdAt, @day, @visitorHash, @name, @targetUrl, @linkDomain, @linkPath, @fileName, @fileExt,
         @elementId, @elementClasses, @elementText, @mouseButton, @pageId, @shopDownload, @eventTime)`,
    ),
    exclusion: db.prepare(
      `INSERT INTO stats_exclusion_days (day, reason, agent, hits) VALUES (@day, @reason, @agent, @hits)
       ON CONFLICT (day, reason, agent) DO UPDATE SET hits = hits + excluded.hits`,
    ),
    online: db.prepare(
      `INSERT INTO stats_online (visitor_hash, address_hash, page, first_seen, last_seen)
       VALUES (@visitorHash, @addressHash, @page, @firstSeen, @lastSeen)
       ON CONFLICT (visitor_hash) DO UPDATE SET page = excluded.page, address_hash = excluded.address_hash,
         last_seen = MAX(last_seen, excluded.last_seen)`,
    ),
    countRequest: db
      .prepare(
        `INSERT INTO stats_rate_limits (address_hash, minute, count) VALUES (?, ?, 1)
         ON CONFLICT (address_hash, minute) DO UPDATE SET count = count + 1 RETURNING count`,
      )
      .pluck(),
  };
}
