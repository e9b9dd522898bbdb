import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIGURE_DEFINITIONS } from '../../shared/insights/figureDefinitions';
import { PRIVATE_QUERY_PARAMS, SHOP_VARIATION_PARAMS } from '../../shared/stats/pageIdentity';
import { projectPath } from '../projectPath';

/* The definitions the page shows are the ones docs/insights.md gives, and the ignored parameters are documented. */

describe('the figures’ definitions in the docs', () => {
  const insights = readFileSync(projectPath('docs/insights.md'), 'utf8');
  const statistics = readFileSync(projectPath('docs/statistics.md'), 'utf8').replace(/\s+/g, ' ');

  it.each(FIGURE_DEFINITIONS.map((each) => [each.term, each.text]))('%s', (term, text) => {
    expect(insights).toContain(`- **${term}**: ${text}`);
  });

  it('lists every private and shop-written parameter the statistics leave out', () => {
    for (const name of [...PRIVATE_QUERY_PARAMS, ...SHOP_VARIATION_PARAMS])
      expect(statistics).toContain(`\`${name}\``);
  });
});
