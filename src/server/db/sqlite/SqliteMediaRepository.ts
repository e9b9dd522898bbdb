import type Database from 'better-sqlite3';
import { type MediaRow, toAttachment } from '../mediaRows';
import type { MediaAttachment, MediaRepository, MediaSize, NewMediaAttachment } from '../ports';

export class SqliteMediaRepository implements MediaRepository {
  #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  async create(attachment: NewMediaAttachment) {
    const id = this.#db
      .prepare(
        `INSERT INTO media (slug, title, alt_text, mime_type, file, filesize, width, height)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        attachment.slug,
        attachment.title,
        attachment.altText,
        attachment.mimeType,
        attachment.file,
        attachment.filesize,
        attachment.width,
        attachment.height,
      ).lastInsertRowid;
    return (await this.get(Number(id))) as MediaAttachment;
  }

  async get(id: number) {
    const row = this.#db.prepare('SELECT * FROM media WHERE id = ?').get(id) as MediaRow | undefined;
    return row ? toAttachment(row) : null;
  }

  async setSizes(id: number, sizes: Record<string, MediaSize>, done: boolean) {
    this.#db
      .prepare('UPDATE media SET sizes = ?, subsizes_done = ? WHERE id = ?')
      .run(JSON.stringify(sizes), done ? 1 : 0, id);
  }

  async update(id: number, changes: { title?: string; altText?: string }) {
    this.#db
      .prepare('UPDATE media SET title = COALESCE(?, title), alt_text = COALESCE(?, alt_text) WHERE id = ?')
      .run(changes.title ?? null, changes.altText ?? null, id);
  }

  async delete(id: number) {
    return this.#db.prepare('DELETE FROM media WHERE id = ?').run(id).changes > 0;
  }
}
