// Runs axe-core (the copy Lighthouse brings) in the page and returns the serious and critical
// violations, so each page's browser test can require none.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the debugging protocol: the app's CSP allows no inline script tag.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    interface AxeResult {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
    }
    const axe = (window as unknown as { axe: { run(context: Document): Promise<AxeResult> } }).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.map(String).join(' ')),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
