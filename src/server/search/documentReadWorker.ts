import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { SearchScope } from '../db/ports';
import { SqliteSearchRepository } from '../db/sqlite/SqliteSearchRepository';
import { MemorySearchIndex } from './MemorySearchIndex';

/*
 * The thread behind DocumentReadThread: reads the documents of a scope from the shop's SQLite file on a connection
 * of its own and analyzes them, so that neither holds the server's event loop. Answers each request with the
 * documents, the keys gone and each document's terms, or with the error's message.
 */

export interface DocumentReadRequest {
  id: number;
  scope: SearchScope;
}

export type DocumentReadAnswer =
  | {
      id: number;
      documents: unknown[];
      removedKeys: string[];
      analyzed: ReadonlyMap<string, number>[];
    }
  | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('documentReadWorker runs as a worker thread');
const db = new Database((workerData as { file: string }).file, { readonly: true, fileMustExist: true });
// A checkpoint or an import's commit may hold the file a moment: wait as the server's connection does.
db.pragma('busy_timeout = 5000');
const repository = new SqliteSearchRepository(db);

port.on('message', async ({ id, scope }: DocumentReadRequest) => {
  let answer: DocumentReadAnswer;
  try {
    const { documents, removedKeys } = await repository.loadDocuments(scope);
    answer = {
      id,
      documents,
      removedKeys,
      analyzed: documents.map((document) => MemorySearchIndex.analyzeDocument(document)),
    };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
