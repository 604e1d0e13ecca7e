import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults, Result } from 'axe-core';

// axe-core's browser bundle, evaluated in the page through the DevTools protocol (the app's CSP
// refuses inline and injected <script> tags, and the test must not weaken it).
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Rules of WCAG 2.x A/AA and axe's best practices (heading order, landmarks, scrollable regions …). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** Runs axe-core on the whole page and returns its violations. */
export async function axeViolations(page: Page): Promise<Result[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResults> } }).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      }),
    TAGS,
  );
  return results.violations;
}

/** One line per violated rule: impact, rule, help, and the first nodes' selectors. */
export function describe(violations: Result[]): string[] {
  return violations.map(
    (v) =>
      `${v.impact} ${v.id} (${v.help}): ${v.nodes
        .slice(0, 4)
        .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.split('\n').slice(1, 2).join('').trim()}` : ''}`)
        .join(' | ')}${v.nodes.length > 4 ? ` … ${v.nodes.length} nodes` : ''}`,
  );
}

/** Violations that fail the test: serious or critical ones, and heading order (issue #19). */
export function blocking(violations: Result[]): Result[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order');
}
