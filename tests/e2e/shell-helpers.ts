// Helpers of the shell browser tests: accounts made through the real admin API, sign-in without
// the form (for tests about something else), the SMS outbox and screenshots.
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ADMIN } from './server-process';

export type Level = 'ADMIN' | 'DESIGNER' | 'GENERAL';

export interface TestUser {
  account: string;
  password: string;
  level: Level;
  phone: string;
  wechat: string;
  displayName: string;
}

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

let unique = 0;
/** Unique per run and per call, so tests never collide with accounts of another test. */
export function uniqueSuffix(): string {
  unique += 1;
  return `${Date.now().toString(36)}${process.pid.toString(36)}${unique}`;
}

async function ok<T>(response: Awaited<ReturnType<APIRequestContext['post']>>): Promise<T> {
  const body = (await response.json()) as Envelope<T>;
  if (!body.success) throw new Error(`${response.url()} answered ${response.status()}: ${body.message}`);
  return body.data;
}

export async function adminToken(request: APIRequestContext): Promise<string> {
  const data = await ok<{ token: string }>(
    await request.post('/api/auth/login-password', { data: E2E_ADMIN }),
  );
  return data.token;
}

/** Creates an account of the given level with a phone number and a SmartLink (wechat) account. */
export async function createUser(
  request: APIRequestContext,
  level: Level,
  token?: string,
): Promise<TestUser> {
  const suffix = uniqueSuffix();
  const user: TestUser = {
    account: `e2e-${level.toLowerCase()}-${suffix}`,
    password: `pass-${suffix}`,
    level,
    // Random digits: a clock-based number could repeat another test user's, and a code is sent
    // to the first account with the number (none when that one is disabled).
    phone: `139${String(randomInt(0, 100_000_000)).padStart(8, '0')}`,
    wechat: `wx-${suffix}`,
    displayName: `${level[0]}${level.slice(1).toLowerCase()} ${suffix.slice(-4)}`,
  };
  await ok(
    await request.post('/api/users/', {
      headers: { Authorization: `Bearer ${token ?? (await adminToken(request))}` },
      data: {
        account: user.account,
        password: user.password,
        user_level: level,
        display_name: user.displayName,
        phone: user.phone,
        international_code: '86',
        wechat_account: user.wechat,
      },
    }),
  );
  return user;
}

/** Signs in through the API and puts the session where the PWA keeps it (spec §3 keys). */
export async function signInQuickly(
  page: Page,
  request: APIRequestContext,
  user: Pick<TestUser, 'account' | 'password'>,
  at = '/#/',
): Promise<void> {
  const grant = await ok<{ token: string; refresh_token: string; user: unknown }>(
    await request.post('/api/auth/login-password', {
      data: { account: user.account, password: user.password },
    }),
  );
  // Written from a page outside the app, so the next navigation loads the app with the session.
  await page.goto('/config.json');
  await page.evaluate((g) => {
    localStorage.setItem('token', g.token);
    localStorage.setItem('refreshToken', g.refresh_token);
    localStorage.setItem('isLoggedIn', 'true');
    localStorage.setItem('username', (g.user as { account: string }).account);
    localStorage.setItem('userInfo', JSON.stringify(g.user));
  }, grant);
  await page.goto(at);
}

/** The last code the server "texted" to this phone (DATA_DIR/sms-outbox.jsonl). */
export function lastCodeFor(phone: string): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (global setup did not run?)');
  const lines = readFileSync(path.join(dataDir, 'sms-outbox.jsonl'), 'utf8').trim().split('\n');
  for (const line of lines.reverse()) {
    const entry = JSON.parse(line) as { phone: string; code: string };
    if (entry.phone === phone) return entry.code;
  }
  throw new Error(`no code for ${phone}`);
}

export function storageOf(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => Object.fromEntries(Object.entries(localStorage)));
}

export const VIEWPORTS = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '1024x768', width: 1024, height: 768 },
  { name: '768x1024', width: 768, height: 1024 },
  { name: '390x844', width: 390, height: 844 },
  // A phone in landscape: wide like a tablet, but too short for the rail.
  { name: '844x390', width: 844, height: 390 },
] as const;

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: `test-results/screenshots/${name}.png`,
    animations: 'disabled',
    fullPage: false,
  });
}
