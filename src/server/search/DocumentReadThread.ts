import { Worker } from 'node:worker_threads';
import type { SearchScope } from '../db/ports';
import type { DocumentReadAnswer, DocumentReadRequest } from './documentReadWorker';
import type { SearchDocument } from './SearchIndex';

/** A scope's documents, the keys gone, and (when read off the event loop) each document's terms, in order. */
export interface AnalyzedRead {
  documents: SearchDocument[];
  removedKeys: string[];
  analyzed?: readonly ReadonlyMap<string, number>[];
}

/** Reads documents for a merge somewhere other than the event loop (SearchService `readThread`). */
export interface DocumentReads {
  read(scope: SearchScope): Promise<AnalyzedRead>;
  close(): Promise<void>;
}

/** A thread nobody asked anything for this long is stopped (merges come with big imports: rarely). */
const IDLE_MS = 60_000;

/**
 * A worker thread (documentReadWorker.ts) that reads and analyzes a merge's changed documents from the shop's SQLite
 * file: SQLite's driver is synchronous, so on the server's thread each read, and the analysis after it, held every
 * shopper's request (measured: two thirds of the time from a 20,000-product import to its swap, with most of the
 * stalls). Reads are answered in the order asked; the thread starts on the first one and stops when idle. A read
 * fails when the thread cannot start or dies: the caller then reads on its own thread.
 */
export class DocumentReadThread implements DocumentReads {
  readonly #workerFile: URL;
  readonly #databaseFile: string;
  /** The running thread and the reads it has yet to answer (a thread that died fails its own reads only). */
  #thread: { worker: Worker; pending: Map<number, PendingRead> } | null = null;
  #nextId = 0;
  #idle: NodeJS.Timeout | null = null;
  #documents = 0;
  #failures = 0;

  /** `workerFile`: the built documentReadWorker (tests pass one that loads its source). */
  constructor(workerFile: URL, databaseFile: string) {
    this.#workerFile = workerFile;
    this.#databaseFile = databaseFile;
  }

  /** The documents it answered with and the reads it failed since the process started (GET /healthz). */
  stats(): { documents: number; failures: number } {
    return { documents: this.#documents, failures: this.#failures };
  }

  async read(scope: SearchScope): Promise<AnalyzedRead> {
    try {
      const thread = this.#started();
      const id = ++this.#nextId;
      if (this.#idle) clearTimeout(this.#idle);
      this.#idle = null;
      const answer = await new Promise<AnalyzedRead>((resolve, reject) => {
        thread.pending.set(id, { resolve, reject });
        thread.worker.postMessage({ id, scope } satisfies DocumentReadRequest);
      });
      this.#documents += answer.documents.length;
      return answer;
    } catch (error) {
      this.#failures++;
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    const thread = this.#thread;
    this.#thread = null;
    if (thread) await thread.worker.terminate();
  }

  #started(): { worker: Worker; pending: Map<number, PendingRead> } {
    if (this.#thread) return this.#thread;
    const worker = new Worker(this.#workerFile, { workerData: { file: this.#databaseFile } });
    const thread = { worker, pending: new Map<number, PendingRead>() };
    // A merge awaits its reads; the thread alone never keeps the process up.
    worker.unref();
    worker.on('message', (answer: DocumentReadAnswer) => {
      const pending = thread.pending.get(answer.id);
      if (!pending) return;
      thread.pending.delete(answer.id);
      if ('error' in answer) pending.reject(new Error(answer.error));
      else pending.resolve(answer as AnalyzedRead);
      if (thread.pending.size === 0 && this.#thread === thread) {
        this.#idle = setTimeout(() => void this.close(), IDLE_MS).unref();
      }
    });
    const stopped = (error: Error) => {
      if (this.#thread === thread) this.#thread = null;
      for (const pending of thread.pending.values()) pending.reject(error);
      thread.pending.clear();
    };
    worker.on('error', stopped);
    worker.on('exit', () => stopped(new Error('The document read thread stopped')));
    this.#thread = thread;
    return thread;
  }
}

interface PendingRead {
  resolve: (read: AnalyzedRead) => void;
  reject: (error: Error) => void;
}
