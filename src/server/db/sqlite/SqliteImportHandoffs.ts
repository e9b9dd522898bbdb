import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { SearchDocument } from '../../search/SearchIndex';
import type { ImportHandoff, ImportHandoffs, SearchChanges } from '../ports';
import { type StoredPart, storedPart } from '../sql/importHandoffParts';

/*
 * Imports handed over before they commit, on SQLite (docs/search-engine.md "Imports handed over"; the import's side
 * is handOffImportSqlite.ts). An import holds the shop file's only write lock until it commits, and no other
 * connection can read what it wrote before then: the handoff lives in a side file next to the shop's, with its own
 * lock. SQLite has no LISTEN to count the processes an import waits for, nor a transaction id whose outcome outlives
 * it, so the side file also holds each server process (by its pid) and each import's outcome, written right after
 * its COMMIT or ROLLBACK; an import whose process is gone without one rolled back (or committed and died before
 * saying so: either way its processes then follow it from the catalog, as they would without a handoff).
 */

/** How often a server process looks in the side file for a new handoff. */
const WATCH_MS = 100;

/** The side file next to the shop's `shop.sqlite`: shop.sqlite-handoffs. */
export function handoffFileOf(shopFile: string): string {
  return `${shopFile}-handoffs`;
}

/** Opens (creating if needed) the side file. Its rows are worthless once their import ended: no fsync. */
export function openHandoffFile(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('busy_timeout = 5000');
  db.exec(`
    CREATE TABLE IF NOT EXISTS replicas (
      replica TEXT PRIMARY KEY,
      pid INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS handoffs (
      -- Never reused: a process answers a handoff by its id.
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      -- The importing process: gone without an outcome, its import rolled back.
      pid INTEGER NOT NULL,
      -- The change log's newest position the import's transaction saw: its own changes are at or below it.
      up_to INTEGER NOT NULL,
      changes TEXT NOT NULL,
      -- Set once every part is written.
      parts INTEGER,
      -- 'committed' or 'aborted', written right after the import's transaction ended.
      outcome TEXT,
      ended_at INTEGER
    );
    CREATE TABLE IF NOT EXISTS handoff_parts (
      handoff_id INTEGER NOT NULL,
      part INTEGER NOT NULL,
      documents TEXT NOT NULL,
      removed_keys TEXT NOT NULL,
      PRIMARY KEY (handoff_id, part)
    );
    CREATE TABLE IF NOT EXISTS handoff_acks (
      handoff_id INTEGER NOT NULL,
      replica TEXT NOT NULL,
      prepared INTEGER NOT NULL,
      PRIMARY KEY (handoff_id, replica)
    );`);
  return db;
}

/** Whether a process of this machine is running (the shop's SQLite file is local to it). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: string }).code === 'EPERM';
  }
}

/** The server processes an import waits for: those registered whose process still runs. */
export function liveReplicas(side: Database.Database): number {
  const rows = side.prepare('SELECT pid FROM replicas').all() as { pid: number }[];
  return rows.filter((row) => processAlive(row.pid)).length;
}

/** A server process's side: it registers while it watches, then reads handoffs' parts and answers. */
export class SqliteImportHandoffs implements ImportHandoffs {
  readonly path: string;
  /** This process's name in the answers. */
  readonly replica = randomUUID();
  #db: Database.Database | null = null;
  constructor(shopFile: string) {
    this.path = handoffFileOf(shopFile);
  }

  /** The side file, opened on first use (a process that never imports nor watches never creates it). */
  get file(): Database.Database {
    this.#db ??= openHandoffFile(this.path);
    return this.#db;
  }

  /**
   * The side file, or null with a warning when it cannot be opened (a data dir the shop may not write to beside its
   * file): imports are then followed from the catalog once they commit, as without a handoff.
   */
  fileIfOpens(): Database.Database | null {
    try {
      return this.file;
    } catch (error) {
      process.emitWarning(
        `Imports cannot hand their search documents over (${(error as Error).message}): the shop reads them once they commit`,
      );
      return null;
    }
  }

  /** How many watches are running (several searches may share one connection: tests, a rebuilt app). */
  #watching = 0;

  watch(onHandedOver: () => void): () => void {
    const side = this.fileIfOpens();
    if (!side) return () => {};
    // Registered once for all of this connection's watches: they answer under one name.
    if (this.#watching++ === 0) this.#register(side);
    const newest = () => side.prepare('SELECT max(id) FROM handoffs').pluck().get() as number | null;
    let seen: number | null = null;
    const look = () => {
      const id = newest();
      if (id === seen) return;
      seen = id;
      onHandedOver();
    };
    const timer = setInterval(() => {
      try {
        look();
      } catch {
        // Busy a moment (an import writing a part): the next look sees it.
      }
    }, WATCH_MS);
    timer.unref();
    look();
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      // Closed already, or busy: the row's pid, once gone, leaves it out of every count.
      if (--this.#watching === 0 && side.open) {
        try {
          side.prepare('DELETE FROM replicas WHERE replica = ?').run(this.replica);
        } catch {}
      }
    };
  }

  /** Counts this process among those an import waits for, and forgets those gone. */
  #register(side: Database.Database): void {
    const dead = (
      side.prepare('SELECT replica, pid FROM replicas').all() as { replica: string; pid: number }[]
    )
      .filter((row) => !processAlive(row.pid))
      .map((row) => row.replica);
    side
      .prepare('DELETE FROM replicas WHERE replica IN (SELECT value FROM json_each(?))')
      .run(JSON.stringify(dead));
    side
      .prepare('INSERT OR REPLACE INTO replicas (replica, pid) VALUES (?, ?)')
      .run(this.replica, process.pid);
  }

  async pending(): Promise<ImportHandoff[]> {
    const rows = this.file
      .prepare(
        `SELECT h.id, h.pid, h.up_to, h.changes FROM handoffs h WHERE h.outcome IS NULL
         AND NOT EXISTS (SELECT 1 FROM handoff_acks a WHERE a.handoff_id = h.id AND a.replica = ?) ORDER BY h.id`,
      )
      .all(this.replica) as { id: number; pid: number; up_to: number; changes: string }[];
    return rows
      .filter((row) => processAlive(row.pid))
      .map((row) => ({
        id: row.id,
        xid: `pid ${row.pid}`,
        upTo: row.up_to,
        changes: JSON.parse(row.changes) as SearchChanges,
      }));
  }

  async part(
    handoff: ImportHandoff,
    part: number,
  ): Promise<{ documents: SearchDocument[]; removedKeys: string[] } | null> {
    return storedPart(async () => {
      const row = this.file
        .prepare(
          `SELECT p.documents, p.removed_keys, h.parts, h.pid, h.outcome FROM handoffs h
           LEFT JOIN handoff_parts p ON p.handoff_id = h.id AND p.part = ? WHERE h.id = ?`,
        )
        .get(part, handoff.id) as
        | (Omit<StoredPart, 'ended'> & { pid: number; outcome: string | null })
        | undefined;
      return row && { ...row, ended: row.outcome !== null || !processAlive(row.pid) };
    }, part);
  }

  async answer(handoff: ImportHandoff, prepared: boolean): Promise<void> {
    this.file
      .prepare(
        `INSERT INTO handoff_acks (handoff_id, replica, prepared) SELECT id, ?, ? FROM handoffs WHERE id = ?
         ON CONFLICT DO NOTHING`,
      )
      .run(this.replica, prepared ? 1 : 0, handoff.id);
  }

  async outcome(handoff: ImportHandoff): Promise<'committed' | 'aborted' | 'in progress'> {
    const row = this.file.prepare('SELECT pid, outcome FROM handoffs WHERE id = ?').get(handoff.id) as
      | { pid: number; outcome: 'committed' | 'aborted' | null }
      | undefined;
    if (!row) return 'aborted';
    return row.outcome ?? (processAlive(row.pid) ? 'in progress' : 'aborted');
  }

  close(): void {
    this.#db?.close();
    this.#db = null;
  }
}
