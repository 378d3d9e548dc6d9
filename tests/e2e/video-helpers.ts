// How a person drives the video generation page, shared by the browser suite
// (video-generation.spec.ts) and the cluster suite: a session put where the PWA keeps it, the
// fabric form with one model and one pattern image, and the way to the analysis.
import { expect, type Page } from '@playwright/test';
import { pngFiles } from './image-processing-helpers';

export interface VideoGrant {
  token: string;
  refresh_token?: string;
  user: { account: string };
}

export async function loginGrant(base: string, account: string, password: string): Promise<VideoGrant> {
  const res = await fetch(`${base}/api/auth/login-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${account} answered ${res.status}`);
  return ((await res.json()) as { data: VideoGrant }).data;
}

/** Signs `account` in (through `base`) and opens the video generation page, in English. */
export async function openVideoPage(page: Page, base: string, account: { account: string; password: string }): Promise<void> {
  const grant = await loginGrant(base, account.account, account.password);
  await page.goto(`${base}/config.json`);
  await page.evaluate((g) => {
    localStorage.setItem('token', g.token);
    if (g.refresh_token) localStorage.setItem('refreshToken', g.refresh_token);
    localStorage.setItem('isLoggedIn', 'true');
    localStorage.setItem('username', g.user.account);
    localStorage.setItem('userInfo', JSON.stringify(g.user));
    localStorage.setItem('language', 'en-US');
  }, grant);
  await page.goto(`${base}/#/video-generation`);
  await expect(page.getByTestId('video-generation-page')).toBeVisible();
}

export async function fillInfo(page: Page): Promise<void> {
  await page.getByTestId('field-fabric_name').fill('Silk chiffon');
  await page.getByTestId('field-transparency').selectOption('other');
  await page.getByTestId('field-transparency-custom').fill('see-through when wet');
  await page.getByTestId('field-luster').selectOption('soft');
  await page.getByTestId('input-model').setInputFiles(pngFiles(1, 64));
  await page.getByTestId('input-pattern').setInputFiles(pngFiles(1, 64, 5));
  await expect(page.getByTestId('thumb-model')).toHaveCount(1);
}

/** From the filled form through the prompt step to the analysis (which then runs). */
export async function toCandidates(page: Page): Promise<void> {
  await page.getByTestId('step-next').click();
  await expect(page.getByTestId('step-next')).toHaveText(/Analyse/);
  await expect(page.getByTestId('step-blocker')).toHaveText('Select at least one image prompt to continue.');
  await page.getByTestId('prompt-select').check();
  await page.getByTestId('step-next').click();
}
