import pg from 'pg';

/*
 * The wake-up of every process that keeps something derived from the catalog (the search replica, a render cache):
 * PostgreSQL's LISTEN on channel `shop_changes`, which triggers notify at commit with the written table's name as
 * payload (migration 0034: `search_changes`, `search_settings`). A notification only says "look": what changed is
 * read from the change log by sequence, so a missed one (a dropped connection, a restart of the database) costs
 * delay, never a lost change. Listeners therefore also check on a timer, and are told `null` after every
 * (re)connection, when notifications may have been missed.
 */

/** The channel the change-log triggers notify (docs/postgresql.md "Change notifications"). */
export const CHANGE_CHANNEL = 'shop_changes';

/**
 * The LISTEN connection's `application_name`: one per server process that keeps a search replica, which an import
 * counts to know how many processes to wait for (handOffImport.ts).
 */
export const CHANGE_LISTENER_NAME = 'shop_changes listener';

/** Called with the table a committed transaction wrote, or `null` when notifications may have been missed. */
export type ChangeListener = (table: string | null) => void;

export interface ChangeNotifications {
  /** Starts listening (one connection per process, shared by every subscriber); the returned function stops. */
  subscribe(listener: ChangeListener): () => void;
  /** Ends the connection; subscribers hear nothing more. */
  close(): Promise<void>;
}

interface Options {
  /** Wait before reconnecting after the connection dropped (doubles up to 30 s). */
  retryMs?: number;
}

/**
 * Notifications of the database `connectionString` points at. The LISTEN connection is opened on the first
 * subscription and held apart from the pool: a pooled connection would be handed to queries that end it.
 */
export function pgChangeNotifications(connectionString: string, options: Options = {}): ChangeNotifications {
  const listeners = new Set<ChangeListener>();
  const firstRetryMs = options.retryMs ?? 500;
  let retryMs = firstRetryMs;
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const tell = (table: string | null) => {
    for (const listener of listeners) listener(table);
  };

  const dropped = (which: pg.Client) => {
    if (client !== which) return;
    client = null;
    which.removeAllListeners('notification');
    void which.end().catch(() => undefined);
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer || listeners.size === 0) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, 30_000);
  };

  const connect = (): Promise<void> => {
    if (connecting || client || closed) return connecting ?? Promise.resolve();
    const next = new pg.Client({ connectionString, application_name: CHANGE_LISTENER_NAME });
    connecting = (async () => {
      try {
        next.on('error', () => dropped(next));
        next.on('end', () => dropped(next));
        next.on('notification', (message) => {
          if (message.channel === CHANGE_CHANNEL) tell(message.payload ?? null);
        });
        await next.connect();
        await next.query(`LISTEN ${CHANGE_CHANNEL}`);
        if (closed) {
          await next.end();
          return;
        }
        client = next;
        retryMs = firstRetryMs;
        // Whatever was committed while nobody listened: every subscriber catches up by sequence.
        tell(null);
      } catch {
        next.removeAllListeners('notification');
        await next.end().catch(() => undefined);
        scheduleReconnect();
      } finally {
        connecting = null;
      }
    })();
    return connecting;
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      void connect();
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      closed = true;
      listeners.clear();
      if (retryTimer) clearTimeout(retryTimer);
      await connecting;
      const current = client;
      client = null;
      if (current) {
        current.removeAllListeners('notification');
        await current.end().catch(() => undefined);
      }
    },
  };
}
