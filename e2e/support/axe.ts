import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe-core with all its default rules (WCAG A/AA and best practices) on the page as it is now, and fails with
 * a readable list (rule, impact, the offending elements) when anything is found. docs/contract.md: no page has a
 * violation.
 */
export async function expectNoAxeViolations(
  page: Page,
  options: {
    exclude?: string[];
    /** Record the failure and go on (several pages audited in one test report every page's violations). */
    soft?: boolean;
    /** Names the page or state in the failure, instead of its address. */
    what?: string;
  } = {},
): Promise<void> {
  let builder = new AxeBuilder({ page });
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const found = violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    elements: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
  }));
  const assert = options.soft ? expect.soft : expect;
  assert(found, `axe-core violations on ${options.what ?? page.url()}`).toEqual([]);
}
