// The video workflow in Chromium with GENERATION_IMAGES=comfyui and GENERATION_VIDEO=comfyui: the
// companion server talks to a local server speaking ComfyUI's HTTP and WebSocket protocol
// (tests/support/comfyui-double.ts) for the six candidates and the video, and the page shows the
// GPU's own progress words ("Sampling: step 4 of 20") while the video is made; the settings page
// says which engine makes what and that the workflows have everything they need.
import { expect, test, type Page } from '@playwright/test';
import { ComfyDouble } from '../support/comfyui-double';
import { pngFiles } from './image-processing-helpers';
import { E2E_ADMIN, startServer, type RunningServer } from './server-process';

const PORT = 8177;
const COMFY_PORT = 8178;
const GENERAL = { account: 'comfy-general', password: 'comfy-general-pass' };
let server: RunningServer;
let comfy: ComfyDouble;

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

async function login(account: string, password: string) {
  const res = await fetch(`${server.url}/api/auth/login-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password }),
  });
  return ((await res.json()) as { data: { token: string; refresh_token?: string; user: { account: string } } }).data;
}

test.beforeAll(async () => {
  comfy = await ComfyDouble.start({ port: COMFY_PORT, stepMs: 5 });
  server = await startServer(PORT, {
    COMFYUI_URL: comfy.url,
    GENERATION_IMAGES: 'comfyui',
    GENERATION_VIDEO: 'comfyui',
    ...(process.env.E2E_STATIC_DIR ? { STATIC_DIR: process.env.E2E_STATIC_DIR } : {}),
  });
  const admin = await login(E2E_ADMIN.account, E2E_ADMIN.password);
  const res = await fetch(`${server.url}/api/users/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
    body: JSON.stringify({ account: GENERAL.account, password: GENERAL.password, user_level: 'GENERAL', display_name: 'Designer' }),
  });
  expect(res.status).toBeLessThan(300);
});

test.afterAll(async () => {
  await server?.stop();
  await comfy?.stop();
});

async function open(page: Page, hash: string): Promise<void> {
  const grant = await login(GENERAL.account, GENERAL.password);
  await page.goto(`${server.url}/config.json`);
  await page.evaluate((g) => {
    localStorage.setItem('token', g.token);
    if (g.refresh_token) localStorage.setItem('refreshToken', g.refresh_token);
    localStorage.setItem('isLoggedIn', 'true');
    localStorage.setItem('username', g.user.account);
    localStorage.setItem('userInfo', JSON.stringify(g.user));
    localStorage.setItem('language', 'en-US');
  }, grant);
  await page.goto(`${server.url}/#/${hash}`);
}

test('the whole video workflow on a ComfyUI server: candidates and a video from the GPU, with its steps on the card', async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  await open(page, 'video-generation');
  await expect(page.getByTestId('video-generation-page')).toBeVisible();
  await page.getByTestId('field-fabric_name').fill('Silk chiffon');
  await page.getByTestId('input-model').setInputFiles(pngFiles(1, 64));
  await page.getByTestId('input-pattern').setInputFiles(pngFiles(1, 64, 5));
  await expect(page.getByTestId('thumb-model')).toHaveCount(1);
  await page.getByTestId('step-next').click();
  await page.getByTestId('prompt-select').check();
  await page.getByTestId('step-next').click();

  // Six candidates, each one prompt on ComfyUI (the analysis text is the built-in engine's).
  await expect(page.getByTestId('candidate')).toHaveCount(6, { timeout: 60_000 });
  expect(comfy.seen().filter((s) => s === 'POST /prompt')).toHaveLength(6);
  expect(comfy.seen().filter((s) => s === 'GET /view')).toHaveLength(6);

  await page.getByTestId('candidate-select').first().check();
  await page.getByTestId('step-next').click();
  await expect(page.getByTestId('video-prompt-text')).toHaveCount(3, { timeout: 30_000 });
  await page.getByTestId('setting-duration').first().selectOption('6');

  // The video holds at its fifth sampler step, so its progress words can be read on the card.
  const hold = comfy.pauseAt(5);
  await page.getByTestId('step-next').click();
  await expect(page.getByTestId('videos-progress')).toBeVisible();
  await hold.reached;
  await expect(page.getByTestId('video-progress-message')).toHaveText(/^Sampling: step \d of 20$/, { timeout: 30_000 });
  hold.release();

  await expect(page.getByTestId('complete-message')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('video-card')).toHaveAttribute('data-status', 'completed');
  const src = await page.getByTestId('video-player').getAttribute('src');
  const mp4 = await page.evaluate(async (url) => {
    const r = await fetch(url!);
    const b = new Uint8Array(await r.arrayBuffer());
    return { ftyp: String.fromCharCode(...b.slice(4, 8)), size: b.length };
  }, src);
  expect(mp4.ftyp).toBe('ftyp');
  const playable = await page.getByTestId('video-player').evaluate(
    (v: HTMLVideoElement) =>
      new Promise<boolean>((resolve) => {
        if (v.readyState >= 1) return resolve(v.duration > 0);
        v.addEventListener('loadedmetadata', () => resolve(v.duration > 0), { once: true });
        v.addEventListener('error', () => resolve(false), { once: true });
        v.load();
      }),
  );
  expect(playable).toBe(true);
  const videoPrompt = [...comfy.prompts.values()].at(-1)!;
  expect(Object.values(videoPrompt.nodes).some((n) => n.class_type === 'SaveVideo')).toBe(true);
});

test('the settings page says which engine makes what, and that ComfyUI has what the workflows need', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await open(page, 'settings');
  await expect(page.getByTestId('settings-engines')).toBeVisible();
  await expect(page.getByTestId('engine-images')).toHaveText('ComfyUI (your GPU server)');
  await expect(page.getByTestId('engine-video')).toHaveText('ComfyUI (your GPU server)');
  await expect(page.getByTestId('engine-analyse')).toHaveText('Built-in engine (local preview)');
  await expect(page.getByTestId('engine-check-comfyui')).toHaveText(/every node type and model the workflows need is installed/);
});
