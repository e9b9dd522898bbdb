import type Database from 'better-sqlite3';
import type { CatalogImport, ImportSummary } from '../../catalog/import/catalogImport';
import type { SearchChanges } from '../ports';
import {
  HANDOFF_MAX_CHANGES,
  HANDOFF_MIN_PRODUCTS,
  HANDOFF_WAIT_MS,
  handoffScopes,
  heldBefore,
  NAMES_SQL,
  type NamesBefore,
  namesOfRows,
  renamedOf,
} from '../sql/importHandoffParts';
import { CHANGE_LOG_ROWS, type ChangeLogRow, changesOfRows } from '../sql/pageChangeSql';
import { liveReplicas, processAlive } from './SqliteImportHandoffs';
import { SqliteSearchRepository } from './SqliteSearchRepository';
import { writeCatalogImport } from './writeCatalogImport';

/*
 * An import's search documents handed to the shop's server processes before it commits, on SQLite (the side file
 * and the processes' side: SqliteImportHandoffs.ts). After an import of 20,000 products the server read them back
 * and analyzed them once the import committed, on the cores the shoppers use: they showed 4–5 s after the import
 * ended. Here the import, in a process of its own (`npm run import`), writes its rows, reads its changed documents
 * as its open transaction sees them, stores them in the side file (committed there at once), and waits (a bounded
 * time) while each server process builds the index it will answer from; then it commits, and writes the outcome.
 */

/** How often the import looks at the processes' answers. */
const POLL_MS = 25;
/** Ended handoffs are kept this long (a process still asking for their outcome), then deleted. */
const ENDED_KEPT_MS = 60_000;

/**
 * The import in one transaction held open across awaits: only for a connection the caller has to itself (no other
 * statement may run on it meanwhile). With no server process watching the side file, it is the synchronous import.
 */
export async function importHandedOver(
  db: Database.Database,
  side: Database.Database,
  catalog: CatalogImport,
  onProgress: (done: number, total: number) => void,
  options: { waitMs?: number } = {},
): Promise<ImportSummary> {
  if (liveReplicas(side) === 0) {
    return db.transaction(() => writeCatalogImport(db, catalog, onProgress)).immediate();
  }
  // IMMEDIATE: the import reads the catalog to plan, then writes (SqliteCatalogRepository.importCatalog says why).
  db.prepare('BEGIN IMMEDIATE').run();
  let handoff: number | null = null;
  try {
    const recordedAfter =
      (db.prepare('SELECT max(seq) FROM search_changes').pluck().get() as number | null) ?? 0;
    const namesBefore = namesOfRows(db.prepare(NAMES_SQL).all() as Parameters<typeof namesOfRows>[0]);
    const summary = writeCatalogImport(db, catalog, onProgress);
    handoff = await handOff(db, side, recordedAfter, namesBefore);
    if (handoff !== null) await waitForReplicas(side, handoff, options.waitMs ?? HANDOFF_WAIT_MS);
    db.prepare('COMMIT').run();
    if (handoff !== null) settle(side, handoff, 'committed');
    return summary;
  } catch (error) {
    if (db.inTransaction) db.prepare('ROLLBACK').run();
    if (handoff !== null) settle(side, handoff, 'aborted');
    throw error;
  }
}

/**
 * Inside the import's transaction, once its changes are recorded (every change-log row after `recordedAfter` is
 * its own: it holds the write lock): stores the handoff and its parts, read as the transaction sees them. Null when
 * the import is too small or too large to be worth it, or when storing failed (the processes then read the catalog
 * once it commits).
 */
async function handOff(
  db: Database.Database,
  side: Database.Database,
  recordedAfter: number,
  namesBefore: NamesBefore,
): Promise<number | null> {
  const rows = db
    .prepare(CHANGE_LOG_ROWS.sqlite)
    .all(recordedAfter, recordedAfter, HANDOFF_MAX_CHANGES + 1) as ChangeLogRow[];
  const logged = changesOfRows(rows, recordedAfter);
  if (logged.products.length < HANDOFF_MIN_PRODUCTS || rows.length > HANDOFF_MAX_CHANGES) return null;
  const renamed = (table: 'terms' | 'vendors', edited: readonly number[], before: Map<number, string>) => {
    const held = heldBefore(edited, before);
    if (held.length === 0) return [];
    const now = db
      .prepare(`SELECT id, name FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(held)) as { id: number; name: string }[];
    return renamedOf(held, before, now);
  };
  const changes: SearchChanges = {
    ...logged,
    editedTerms: renamed('terms', logged.editedTerms ?? logged.terms, namesBefore.terms),
    editedVendors: renamed('vendors', logged.editedVendors ?? logged.vendors, namesBefore.vendors),
  };
  const upTo =
    (db.prepare('SELECT max(seq) FROM search_changes').pluck().get() as number | null) ?? recordedAfter;
  let id: number | null = null;
  try {
    clearEnded(side);
    id = Number(
      side
        .prepare('INSERT INTO handoffs (pid, up_to, changes) VALUES (?, ?, ?)')
        .run(process.pid, upTo, JSON.stringify(changes)).lastInsertRowid,
    );
    const documents = new SqliteSearchRepository(db);
    const scopes = handoffScopes(changes);
    for (const [part, scope] of scopes.entries()) {
      const read = await documents.loadDocuments(scope);
      side
        .prepare('INSERT INTO handoff_parts (handoff_id, part, documents, removed_keys) VALUES (?, ?, ?, ?)')
        .run(id, part, JSON.stringify(read.documents), JSON.stringify(read.removedKeys));
    }
    side.prepare('UPDATE handoffs SET parts = ? WHERE id = ?').run(scopes.length, id);
    return id;
  } catch (error) {
    // The handoff only saves the processes work: the import goes on without it. A failure of the import's own
    // statements fails the import next.
    if (id !== null) settle(side, id, 'aborted');
    process.emitWarning(
      `The import's search documents could not be handed to the shop's processes (${(error as Error).message}): they read them once it commits`,
    );
    return null;
  }
}

/** Resolves once every running server process answered, or after `waitMs`. */
async function waitForReplicas(side: Database.Database, handoff: number, waitMs: number): Promise<void> {
  const deadline = performance.now() + waitMs;
  const answered = side.prepare('SELECT count(*) FROM handoff_acks WHERE handoff_id = ?').pluck();
  // Processes that started meanwhile answer too; one that stopped lowers the count.
  while ((answered.get(handoff) as number) < liveReplicas(side) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The import's outcome, for the processes that built from its handoff; its parts are no longer needed. */
function settle(side: Database.Database, handoff: number, outcome: 'committed' | 'aborted'): void {
  try {
    side
      .prepare('UPDATE handoffs SET outcome = ?, ended_at = ? WHERE id = ?')
      .run(outcome, Date.now(), handoff);
    side.prepare('DELETE FROM handoff_parts WHERE handoff_id = ?').run(handoff);
  } catch (error) {
    // The processes read the import's process gone as rolled back, and follow it from the catalog.
    process.emitWarning(
      `The import's outcome could not be told to the shop's processes (${(error as Error).message})`,
    );
  }
}

/** Handoffs that ended a while ago, or whose import's process is gone without saying how it ended. */
function clearEnded(side: Database.Database): void {
  const rows = side.prepare('SELECT id, pid, outcome, ended_at FROM handoffs').all() as {
    id: number;
    pid: number;
    outcome: string | null;
    ended_at: number | null;
  }[];
  const ended = rows
    .filter((row) =>
      row.outcome === null ? !processAlive(row.pid) : (row.ended_at ?? 0) < Date.now() - ENDED_KEPT_MS,
    )
    .map((row) => row.id);
  const ids = JSON.stringify(ended);
  for (const table of ['handoff_parts', 'handoff_acks']) {
    side.prepare(`DELETE FROM ${table} WHERE handoff_id IN (SELECT value FROM json_each(?))`).run(ids);
  }
  side.prepare('DELETE FROM handoffs WHERE id IN (SELECT value FROM json_each(?))').run(ids);
}
