// One silent refresh attempt when an access token is refused (spec §8 says 401 clears the
// session; we first try the rotating refresh token). Concurrent 401s share one refresh call.
import axios from 'axios';
import { getRefreshToken, saveGrant } from '../session/session-store';
import type { SessionGrant } from '../session/user';
import { isEnvelope } from './envelope';
import { loadRuntimeConfig } from './runtime-config';
import { TIMEOUTS } from './timeouts';

let inFlight: Promise<boolean> | null = null;

export function refreshSession(): Promise<boolean> {
  inFlight ??= attempt().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

async function attempt(): Promise<boolean> {
  const refreshToken = getRefreshToken();
  if (!refreshToken) return false;
  try {
    const config = await loadRuntimeConfig();
    // A bare axios call: the shared client's interceptors would recurse on this 401.
    const response = await axios.post<unknown>(
      `${config.api.main}/user/refresh/`,
      { refresh_token: refreshToken },
      { timeout: TIMEOUTS.default, headers: { 'Content-Type': 'application/json;charset=UTF-8' } },
    );
    const body = response.data;
    if (!isEnvelope(body) || !body.success) return false;
    const grant = body.data as Partial<SessionGrant> | null;
    if (!grant?.token) return false;
    saveGrant({ token: grant.token, refresh_token: grant.refresh_token, user: grant.user });
    return true;
  } catch {
    return false;
  }
}
