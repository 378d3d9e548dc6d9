// The API groups of spec §7. main, user, auth and file share the main backend and its envelope;
// image and upscale are separate services; third is the third-party host with its version header.
import type { RuntimeConfig } from './runtime-config';
import { TIMEOUTS } from './timeouts';

export type ApiGroup = 'main' | 'user' | 'auth' | 'file' | 'image' | 'third' | 'upscale';

export interface ApiGroupSpec {
  base: keyof RuntimeConfig['api'];
  timeout: number;
  /** Whether replies are the {success, code, message, data} envelope. */
  envelope: boolean;
  headers: Record<string, string>;
}

const JSON_HEADERS = { 'Content-Type': 'application/json;charset=UTF-8' };

export const API_GROUPS: Record<ApiGroup, ApiGroupSpec> = {
  main: { base: 'main', timeout: TIMEOUTS.default, envelope: true, headers: JSON_HEADERS },
  user: { base: 'main', timeout: TIMEOUTS.default, envelope: true, headers: JSON_HEADERS },
  auth: { base: 'main', timeout: TIMEOUTS.default, envelope: true, headers: JSON_HEADERS },
  // The browser sets multipart/form-data with its boundary when the body is FormData.
  file: { base: 'main', timeout: TIMEOUTS.upload, envelope: true, headers: {} },
  image: { base: 'image', timeout: TIMEOUTS.image, envelope: false, headers: JSON_HEADERS },
  third: { base: 'third', timeout: TIMEOUTS.third, envelope: false, headers: { ...JSON_HEADERS, 'X-API-Version': 'v1' } },
  upscale: { base: 'upscale', timeout: TIMEOUTS.default, envelope: false, headers: {} },
};

/** Sign-in calls carry no bearer token (spec §6): any path containing /login. */
export function sendsBearerToken(path: string | undefined): boolean {
  return !(path ?? '').includes('/login');
}
