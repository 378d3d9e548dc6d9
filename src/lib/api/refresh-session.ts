// One silent refresh attempt when an access token is refused (spec §8 says 401 clears the
// session; we first try the rotating refresh token). Concurrent 401s share one refresh call.
//
// Resolves true when a new token pair was saved and false when the server refused the refresh
// token (the session is over). Rejects with a network ApiError when the call got no verdict: no
// answer, a timeout, or the server failing (5xx, 429). Then the session stays: the refresh token
// may well have been rotated with the answer lost on the way, and the server takes the old one
// again for a short while (its rotation grace period), so the next attempt still succeeds.
import axios, { AxiosError } from 'axios';
import { i18n } from '../../i18n/i18n';
import { getRefreshToken, saveGrant } from '../session/session-store';
import type { SessionGrant } from '../session/user';
import { ApiError } from './api-error';
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
  let body: unknown;
  try {
    const config = await loadRuntimeConfig();
    // A bare axios call: the shared client's interceptors would recurse on this 401.
    const response = await axios.post<unknown>(
      `${config.api.main}/user/refresh/`,
      { refresh_token: refreshToken },
      { timeout: TIMEOUTS.default, headers: { 'Content-Type': 'application/json;charset=UTF-8' } },
    );
    body = response.data;
  } catch (error) {
    if (isVerdict(error)) return false;
    throw new ApiError('network', 0, i18n.t('errors.network'));
  }
  if (!isEnvelope(body) || !body.success) return false;
  const grant = body.data as Partial<SessionGrant> | null;
  if (!grant?.token) return false;
  saveGrant({ token: grant.token, refresh_token: grant.refresh_token, user: grant.user });
  return true;
}

/** An answer that judged the refresh token (refused, malformed), not a failure to get one. */
function isVerdict(error: unknown): boolean {
  const status = error instanceof AxiosError ? error.response?.status : undefined;
  return status !== undefined && status < 500 && status !== 429;
}
