import type { Post } from '../../../shared/catalog/types';
import { type PostRow, toPost } from '../catalogRows';
import type { PostListQuery, PostRepository } from '../ports';
import type { PgPool } from './openPostgres';

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
