import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { DocumentReadThread } from './DocumentReadThread';
import { FacetService } from './facets/FacetService';
import { MemorySearchIndex } from './MemorySearchIndex';
import type { SearchIndex } from './SearchIndex';
import { type ChangeWakeUps, rulesFromSettings, SearchService } from './SearchService';
import { SuggestionBuilder, type SuggestionDecorator } from './SuggestionBuilder';

/**
 * The search feature's services, built once per app. By default each process answers from its own embedded index
 * (MemorySearchIndex), filled from the committed catalog and rebuilt beside itself when needed. On PostgreSQL the
 * shared table index is handed over as `fallback`: it answers while this process's replica builds, and
 * `wakeUps` (LISTEN/NOTIFY) keep the replica fresh without a change-log query per request. A caller may instead
 * hand over `index`, which then answers alone (benches and tests of the shared engine).
 */
export async function createSearch(options: {
  config: ShopConfig;
  repositories: Repositories;
  secret: string;
  decorators?: SuggestionDecorator[];
  index?: SearchIndex;
  fallback?: SearchIndex;
  wakeUps?: ChangeWakeUps;
  /** The built documentReadWorker: with a SQLite file, a merge's reads run on it (DocumentReadThread). */
  readWorker?: URL;
  onError?: (error: unknown, message: string) => void;
}) {
  const embedded = () => new MemorySearchIndex();
  const databaseFile = options.repositories.search.databaseFile;
  const readThread =
    options.readWorker && databaseFile && !options.index
      ? new DocumentReadThread(options.readWorker, databaseFile)
      : undefined;
  const service = new SearchService({
    repository: options.repositories.search,
    index: options.index ?? options.fallback ?? embedded(),
    createIndex: options.index ? undefined : embedded,
    fallback: !options.index && options.fallback !== undefined,
    wakeUps: options.wakeUps,
    secret: options.secret,
    onError: options.onError,
    readThread,
  });
  const facets = new FacetService({ repository: options.repositories.facets, search: service });
  service.follow(facets);
  await service.start(rulesFromSettings(options.config.search.relevance));
  const suggestions = new SuggestionBuilder({
    repositories: options.repositories,
    config: options.config,
    decorators: options.decorators,
  });
  return { service, suggestions, facets, readThread };
}
