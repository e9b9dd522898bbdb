import type Database from 'better-sqlite3';
import type { Post } from '../../../shared/catalog/types';
import { type PostRow, toPost } from '../catalogRows';
import type { PostListQuery, PostRepository } from '../ports';

export class SqlitePostRepository implements PostRepository {
  #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  async listPage({ type, page, perPage, search }: PostListQuery) {
    const where = ['type = ?'];
    const params: unknown[] = [type];
    if (search) {
      const pattern = `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      // A protected post's excerpt and content are not searched: a match would reveal a word of them.
      where.push(
        "(title LIKE ? ESCAPE '\\' OR (password_hash IS NULL AND (excerpt LIKE ? ESCAPE '\\' OR content LIKE ? ESCAPE '\\')))",
      );
      params.push(pattern, pattern, pattern);
    }
    const clause = where.join(' AND ');
    const total = this.#db
      .prepare(`SELECT COUNT(*) FROM posts WHERE ${clause}`)
      .pluck()
      .get(...params) as number;
    const rows = this.#db
      .prepare(`SELECT * FROM posts WHERE ${clause} ORDER BY published_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...params, perPage, (page - 1) * perPage) as PostRow[];
    return { items: rows.map(toPost), total };
  }

  async getById(type: Post['type'], id: number) {
    const row = this.#db.prepare('SELECT * FROM posts WHERE type = ? AND id = ?').get(type, id) as
      | PostRow
      | undefined;
    return row ? toPost(row) : null;
  }
}
