import type { RestMiddleware, RestNext, RestRequest } from './restTypes';

export interface RestClient {
  <T = unknown>(options: RestRequest): Promise<T>;
  /** Adds a middleware that runs before the others (a theme's own), as WordPress's `apiFetch.use` does. */
  use(middleware: RestMiddleware): void;
}

/** A client from a list of middlewares (first runs first) and the handler at the end of the chain. */
export function composeRestClient(middlewares: readonly RestMiddleware[], handler: RestNext): RestClient {
  const chain = [...middlewares];
  const client = (<T>(options: RestRequest) =>
    chain.reduceRight<RestNext>(
      (next, middleware) => (each) => middleware(each, next),
      handler,
    )(options) as Promise<T>) as RestClient;
  client.use = (middleware) => {
    chain.unshift(middleware);
  };
  return client;
}
