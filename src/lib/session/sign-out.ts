// Logout (spec §4): tell the server, then clear everything local even if the server call failed.
import { http } from '../api/http-client';
import { runLogoutCleanups } from './logout-cleanup';
import { clearAllLocalData, getRefreshToken } from './session-store';

export interface SignOutResult {
  /** The server did not confirm; this device is signed out anyway. */
  serverFailed: boolean;
}

export async function signOut(): Promise<SignOutResult> {
  let serverFailed = false;
  const refreshToken = getRefreshToken();
  try {
    await http.post<unknown>('user', '/user/logout/', refreshToken ? { refresh_token: refreshToken } : {});
  } catch {
    serverFailed = true;
  }
  // Cleanups first (they may need the session to find the user's data), then storage.
  await runLogoutCleanups();
  clearAllLocalData();
  return { serverFailed };
}
