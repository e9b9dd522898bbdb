import { type MediaRow, toAttachment } from '../mediaRows';
import type { MediaRepository, MediaSize, NewMediaAttachment } from '../ports';
import type { PgPool } from './openPostgres';

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
