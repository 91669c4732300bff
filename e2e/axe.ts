/**
 * The accessibility check of every spec: axe finds no serious or critical violation on the page,
 * or inside `selector` when one is given (a section's own content, not the shell around it).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export async function expectNoSeriousViolations(page: Page, selector?: string): Promise<void> {
  const builder = new AxeBuilder({ page });
  const results = await (selector ? builder.include(selector) : builder).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
