import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { FacetService } from './facets/FacetService';
import { MemorySearchIndex } from './MemorySearchIndex';
import type { SearchIndex } from './SearchIndex';
import { rulesFromSettings, SearchService } from './SearchService';
import { SuggestionBuilder, type SuggestionDecorator } from './SuggestionBuilder';

/**
 * The search feature's services, built once per app: the index (the embedded one unless the caller hands over a
 * shared one, e.g. createPostgresSearchIndex(pool) when DATABASE_URL is PostgreSQL) filled from the committed
 * catalog, the rules seeded from the settings on first start.
 */
export async function createSearch(options: {
  config: ShopConfig;
  repositories: Repositories;
  secret: string;
  decorators?: SuggestionDecorator[];
  index?: SearchIndex;
}) {
  const service = new SearchService({
    repository: options.repositories.search,
    index: options.index ?? new MemorySearchIndex(),
    secret: options.secret,
  });
  const facets = new FacetService({ repository: options.repositories.facets, search: service });
  service.follow(facets);
  await service.start(rulesFromSettings(options.config.search.relevance));
  const suggestions = new SuggestionBuilder({
    repositories: options.repositories,
    config: options.config,
    decorators: options.decorators,
  });
  return { service, suggestions, facets };
}
