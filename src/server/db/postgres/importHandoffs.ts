import { randomUUID } from 'node:crypto';
import type { SearchDocument } from '../../search/SearchIndex';
import type { ImportHandoff, ImportHandoffs, SearchChanges } from '../ports';
import { storedPart } from '../sql/importHandoffParts';
import type { PgPool } from './openPostgres';

/*
 * A server process's side of an import handed over before it commits (handOffImport.ts says why and how): the
 * handoffs of imports in flight, their documents, and the process's answer.
 */

/** The notification's payload on the change channel when a handoff was stored. */
export const HANDOFF_PAYLOAD = 'search_handoffs';

/** A server process's side: the handoffs of imports in flight, their documents, its answer. */
export class PgImportHandoffs implements ImportHandoffs {
  #pool: PgPool;
  /** This process's name in the answers. */
  readonly replica = randomUUID();
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async pending(): Promise<ImportHandoff[]> {
    const { rows } = await this.#pool
      .query<{ id: string; xid: string; up_to: string; changes: string }>(
        `SELECT h.id, h.xid::text AS xid, h.up_to, h.changes FROM search_handoffs h
         WHERE txid_status(h.xid) = 'in progress'
           AND NOT EXISTS (SELECT 1 FROM search_handoff_acks a WHERE a.handoff_id = h.id AND a.replica = $1)
         ORDER BY h.id`,
        [this.replica],
      )
      // No import has handed anything over on this database yet.
      .catch((error: { code?: string }) => {
        if (error.code === '42P01') return { rows: [] };
        throw error;
      });
    return rows.map((row) => ({
      id: Number(row.id),
      xid: row.xid,
      upTo: Number(row.up_to),
      changes: JSON.parse(row.changes) as SearchChanges,
    }));
  }

  async part(
    handoff: ImportHandoff,
    part: number,
  ): Promise<{ documents: SearchDocument[]; removedKeys: string[] } | null> {
    return storedPart(async () => {
      const { rows } = await this.#pool.query<{
        documents: string | null;
        removed_keys: string | null;
        parts: number | null;
        status: string | null;
      }>(
        `SELECT p.documents, p.removed_keys, h.parts, txid_status(h.xid) AS status FROM search_handoffs h
         LEFT JOIN search_handoff_parts p ON p.handoff_id = h.id AND p.part = $2 WHERE h.id = $1`,
        [handoff.id, part],
      );
      const row = rows[0];
      return row && { ...row, ended: row.status !== 'in progress' };
    }, part);
  }

  async answer(handoff: ImportHandoff, prepared: boolean): Promise<void> {
    await this.#pool.query(
      `INSERT INTO search_handoff_acks (handoff_id, replica, prepared) SELECT id, $2, $3 FROM search_handoffs
       WHERE id = $1 ON CONFLICT DO NOTHING`,
      [handoff.id, this.replica, prepared],
    );
  }

  async outcome(handoff: ImportHandoff): Promise<'committed' | 'aborted' | 'in progress'> {
    const { rows } = await this.#pool.query<{ status: string | null }>('SELECT txid_status($1) AS status', [
      handoff.xid,
    ]);
    const status = rows[0]?.status;
    return status === 'committed' || status === 'in progress' ? status : 'aborted';
  }
}
