import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { SearchRepository } from '../db/ports';
import { rulesFromSettings } from '../search/SearchService';

/**
 * Makes `query` (from the zero-result inbox) a synonym of `synonym`, a word that finds products: both join the
 * group holding either, or form a new group. The rules live in the database and saving them moves their revision,
 * so every process's index applies them from its next search. Before the owner's first change the rules are the
 * settings' own.
 */
export async function addSynonym(
  search: Pick<SearchRepository, 'getRules' | 'saveRules'>,
  relevance: ShopConfig['search']['relevance'],
  query: string,
  synonym: string,
): Promise<void> {
  const rules = (await search.getRules()) ?? rulesFromSettings(relevance);
  const words = [query, synonym];
  const group = rules.synonyms.find((each) => each.some((word) => words.includes(word)));
  if (group) for (const word of words) if (!group.includes(word)) group.push(word);
  if (!group) rules.synonyms.push(words);
  await search.saveRules(rules);
}
