import type { PgPool } from '../src/server/db/postgres/openPostgres';

export interface CountingPool {
  /** The pool to hand to the repositories: the same pool, with every statement it sends recorded. */
  pool: PgPool;
  /** The statements sent since the last `reset()` (their text), in the order they were sent. */
  statements(): string[];
  /** Those of them sent without a name: parsed (and planned) by the server every time, never prepared. */
  unprepared(): string[];
  reset(): void;
}

/**
 * Records every statement a PostgreSQL pool sends, through `pool.query` and through clients taken with
 * `pool.connect()` (transactions), so a test can count the round trips a request costs. A statement given as
 * a config object (a named statement) is recorded by its text.
 */
export function countingPool(pool: PgPool): CountingPool {
  let sent: { text: string; named: boolean }[] = [];
  const record = (config: unknown) => {
    const named = typeof config === 'object' && config !== null && 'name' in config && Boolean(config.name);
    const text = typeof config === 'string' ? config : String((config as { text?: string })?.text ?? config);
    sent.push({ text, named });
  };
  const counted = new Proxy(pool, {
    get(target, property, receiver) {
      if (property === 'query')
        return (config: unknown, ...rest: unknown[]) => {
          record(config);
          return (target.query as (...args: unknown[]) => unknown)(config, ...rest);
        };
      if (property === 'connect')
        return async () => {
          const client = await target.connect();
          return new Proxy(client, {
            get(clientTarget, clientProperty) {
              const value = Reflect.get(clientTarget, clientProperty, clientTarget);
              if (clientProperty !== 'query')
                return typeof value === 'function' ? value.bind(clientTarget) : value;
              return (config: unknown, ...rest: unknown[]) => {
                record(config);
                return (value as (...args: unknown[]) => unknown).call(clientTarget, config, ...rest);
              };
            },
          });
        };
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    pool: counted,
    statements: () => sent.map((statement) => statement.text),
    unprepared: () => sent.filter((statement) => !statement.named).map((statement) => statement.text),
    reset() {
      sent = [];
    },
  };
}
