import type { OrderAttribution } from '../../../shared/attribution/orderAttribution';
import type { Post } from '../../../shared/catalog/types';
import { type DayRange, dayRangeBounds } from '../../../shared/dates/dayRange';
import { type MediaRow, toAttachment } from '../mediaRows';
import type {
  AttributionReportRow,
  AttributionRepository,
  MediaRepository,
  MediaSize,
  NewMediaAttachment,
  OptionRepository,
  PostListQuery,
  PostRepository,
  VisitorMetaRepository,
} from '../repositories';
import { type PostRow, toPost } from '../sqlite/SqliteCatalogRepository';
import { queryNamed } from './namedQuery';
import type { PgPool, Queryable } from './openPostgres';

/* The PostgreSQL counterparts of the small SQLite repositories, query for query. */

export class PgOptionRepository implements OptionRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async get(key: string) {
    const { rows } = await this.#pool.query('SELECT value FROM options WHERE key = $1', [key]);
    return (rows[0]?.value as string | undefined) ?? null;
  }

  async setIfAbsent(key: string, value: string) {
    await this.#pool.query('INSERT INTO options (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
      key,
      value,
    ]);
    return (await this.get(key)) as string;
  }
}

export class PgVisitorMetaRepository implements VisitorMetaRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async get(sessionId: string, key: string) {
    const { rows } = await this.#pool.query(
      'SELECT value FROM visitor_meta WHERE session_id = $1 AND key = $2',
      [sessionId, key],
    );
    return (rows[0]?.value as string | undefined) ?? null;
  }

  async set(sessionId: string, key: string, value: string) {
    await this.#pool.query(
      `INSERT INTO visitor_meta (session_id, key, value) VALUES ($1, $2, $3)
       ON CONFLICT (session_id, key) DO UPDATE SET value = excluded.value`,
      [sessionId, key, value],
    );
  }
}

export class PgPostRepository implements PostRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async listPage({ type, page, perPage, search }: PostListQuery) {
    const where = ['type = $1'];
    const params: unknown[] = [type];
    if (search) {
      // ILIKE: SQLite's LIKE ignores case, PostgreSQL's does not. A protected post's excerpt and content are not
      // searched: a match would reveal a word of them.
      params.push(`%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`);
      where.push(
        "(title ILIKE $2 ESCAPE '\\' OR (password_hash IS NULL AND (excerpt ILIKE $2 ESCAPE '\\' OR content ILIKE $2 ESCAPE '\\')))",
      );
    }
    const clause = where.join(' AND ');
    const total = (await this.#pool.query(`SELECT COUNT(*) AS n FROM posts WHERE ${clause}`, params)).rows[0]
      .n as number;
    const n = params.length;
    const { rows } = await this.#pool.query(
      `SELECT * FROM posts WHERE ${clause} ORDER BY published_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, perPage, (page - 1) * perPage],
    );
    return { items: (rows as PostRow[]).map(toPost), total };
  }

  async getById(type: Post['type'], id: number) {
    const { rows } = await this.#pool.query('SELECT * FROM posts WHERE type = $1 AND id = $2', [type, id]);
    return rows[0] ? toPost(rows[0] as PostRow) : null;
  }
}

export class PgMediaRepository implements MediaRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async create(a: NewMediaAttachment) {
    const { rows } = await this.#pool.query(
      `INSERT INTO media (slug, title, alt_text, mime_type, file, filesize, width, height)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [a.slug, a.title, a.altText, a.mimeType, a.file, a.filesize, a.width, a.height],
    );
    return toAttachment(rows[0] as MediaRow);
  }

  async get(id: number) {
    const { rows } = await this.#pool.query('SELECT * FROM media WHERE id = $1', [id]);
    return rows[0] ? toAttachment(rows[0] as MediaRow) : null;
  }

  async setSizes(id: number, sizes: Record<string, MediaSize>, done: boolean) {
    await this.#pool.query('UPDATE media SET sizes = $1, subsizes_done = $2 WHERE id = $3', [
      JSON.stringify(sizes),
      done ? 1 : 0,
      id,
    ]);
  }

  async update(id: number, changes: { title?: string; altText?: string }) {
    await this.#pool.query(
      'UPDATE media SET title = COALESCE($1, title), alt_text = COALESCE($2, alt_text) WHERE id = $3',
      [changes.title ?? null, changes.altText ?? null, id],
    );
  }

  async delete(id: number) {
    return ((await this.#pool.query('DELETE FROM media WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }
}

/** Writes an order's attribution row; called inside the order's transaction (PgOrderRepository). */
export async function insertOrderAttribution(db: Queryable, orderId: number, attribution: OrderAttribution) {
  await queryNamed(
    db,
    `INSERT INTO order_attribution (order_id, source_type, referrer, utm_campaign, utm_source, utm_medium,
       utm_content, utm_id, utm_term, utm_source_platform, utm_creative_format, utm_marketing_tactic, session_entry,
       session_start_time, session_pages, session_count, user_agent, device_type, current_page, promo_code)
     VALUES (@orderId, @sourceType, @referrer, @utmCampaign, @utmSource, @utmMedium, @utmContent, @utmId, @utmTerm,
       @utmSourcePlatform, @utmCreativeFormat, @utmMarketingTactic, @sessionEntry, @sessionStartTime, @sessionPages,
       @sessionCount, @userAgent, @deviceType, @currentPage, @promoCode)`,
    { orderId, ...attribution },
  );
}

export class PgAttributionRepository implements AttributionRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async getOrderAttribution(orderId: number): Promise<OrderAttribution | null> {
    const { rows } = await this.#pool.query('SELECT * FROM order_attribution WHERE order_id = $1', [orderId]);
    const row = rows[0] as Record<string, string | number | null> | undefined;
    if (!row) return null;
    const camel = Object.fromEntries(
      Object.entries(row)
        .filter(([key]) => key !== 'order_id')
        .map(([key, value]) => [
          key.replace(/_([a-z])/g, (_all, letter: string) => letter.toUpperCase()),
          value,
        ]),
    );
    return camel as unknown as OrderAttribution;
  }

  async summarize(range: DayRange): Promise<AttributionReportRow[]> {
    const { start, end } = dayRangeBounds(range);
    // Orders without attribution (tracking off, no consent) are counted as `unknown`, so totals match the orders.
    return queryNamed<AttributionReportRow>(
      this.#pool,
      `SELECT COALESCE(a.source_type, 'unknown') AS "sourceType", COALESCE(a.utm_source, '(none)') AS source,
              COALESCE(a.utm_medium, '(none)') AS medium, COALESCE(a.utm_campaign, '(none)') AS campaign,
              o.currency AS currency, COUNT(*) AS orders, SUM(o.total) AS revenue
       FROM orders o LEFT JOIN order_attribution a ON a.order_id = o.id
       WHERE o.created_at >= @from AND o.created_at < @to AND o.status != 'cancelled'
       GROUP BY 1, 2, 3, 4, 5
       ORDER BY orders DESC, revenue DESC, "sourceType", source, medium, campaign`,
      { from: start, to: end },
    );
  }
}
