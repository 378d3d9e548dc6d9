// Runs axe-core (the copy Lighthouse brings) in the page and returns the serious and critical
// violations, so each page's browser test can require none. The page is checked as it is, then
// with a toast of each kind showing (raised through the app's `loom:notify` event and checked once
// its entry animation has ended), so a toast that fails colour contrast fails every page's check.
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

const TOAST_KINDS = ['error', 'success', 'info', 'warning', 'message'] as const;

async function runAxe(page: Page, selector: string | null): Promise<AxeViolation[]> {
  return page.evaluate(async (within) => {
    interface AxeResult {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
    }
    const axe = (window as unknown as { axe: { run(context: Document | string): Promise<AxeResult> } }).axe;
    const result = await axe.run(within ?? document);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.map(String).join(' ')),
    }));
  }, selector);
}

/** Raises a toast (or dismisses them all); false when the page has no toaster listening. */
function notify(page: Page, detail: { type?: string; text?: string; dismiss?: boolean }): Promise<boolean> {
  return page.evaluate((d) => {
    const sent: { type?: string; text?: string; dismiss?: boolean; handled?: boolean } = { ...d };
    window.dispatchEvent(new CustomEvent('loom:notify', { detail: sent }));
    return sent.handled === true;
  }, detail);
}

async function settledToast(page: Page, kind: string): Promise<void> {
  const selector = kind === 'message' ? '[data-sonner-toast][data-mounted="true"]' : `[data-sonner-toast][data-mounted="true"][data-type="${kind}"]`;
  await page.waitForSelector(selector, { state: 'visible' });
  await page.waitForFunction(
    (s) => {
      const toast = document.querySelector(s);
      return !!toast && toast.getAnimations({ subtree: true }).every((a) => a.playState !== 'running');
    },
    selector,
  );
}

export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the debugging protocol: the app's CSP allows no inline script tag.
  await page.evaluate(axeSource);
  const violations = await runAxe(page, null);
  for (const kind of TOAST_KINDS) {
    const text = `Accessibility check: ${kind} notice`;
    if (!(await notify(page, { type: kind, text }))) break;
    await settledToast(page, kind);
    violations.push(...(await runAxe(page, '[data-sonner-toaster]')).map((v) => ({ ...v, help: `${v.help} (with the ${kind} toast)` })));
    await notify(page, { dismiss: true });
    await page.waitForFunction(() => !document.querySelector('[data-sonner-toast]'));
  }
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
