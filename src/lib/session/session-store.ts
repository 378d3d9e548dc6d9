// The session lives in localStorage (spec §3) so that a reload or a second tab stays signed in.
// Components read it through useSession (useSyncExternalStore); everything else calls these.
import { DEVICE_PREFERENCE_KEYS, STORAGE_KEYS } from './storage-keys';
import { isUserLevel, type SessionGrant, type User } from './user';

export interface SessionSnapshot {
  isLoggedIn: boolean;
  token: string | null;
  username: string | null;
  user: User | null;
}

const listeners = new Set<() => void>();
let snapshot: SessionSnapshot = read();

function read(): SessionSnapshot {
  const token = localStorage.getItem(STORAGE_KEYS.token);
  return {
    isLoggedIn: localStorage.getItem(STORAGE_KEYS.isLoggedIn) === 'true' && !!token,
    token,
    username: localStorage.getItem(STORAGE_KEYS.username),
    user: parseUser(localStorage.getItem(STORAGE_KEYS.userInfo)),
  };
}

function parseUser(raw: string | null): User | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<User> | null;
    // A damaged cache must not crash the shell; the profile call repairs it.
    return value && typeof value.account === 'string' && isUserLevel(value.user_level) ? (value as User) : null;
  } catch {
    return null;
  }
}

/**
 * A new snapshot only when something in it changed: useSession re-renders synchronously on every
 * new one, from the route guard down through the whole page, and the profile answer on each start
 * usually repeats the cached user.
 */
function changed(): void {
  const next = read();
  if (
    next.isLoggedIn === snapshot.isLoggedIn &&
    next.token === snapshot.token &&
    next.username === snapshot.username &&
    sameUser(next.user, snapshot.user)
  )
    return;
  snapshot = next;
  for (const listener of listeners) listener();
}

function sameUser(a: User | null, b: User | null): boolean {
  return a === b || (a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b));
}

export function getSession(): SessionSnapshot {
  return snapshot;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getRefreshToken(): string | null {
  return localStorage.getItem(STORAGE_KEYS.refreshToken);
}

/** Saving a token stores it and sets isLoggedIn (spec §4); a grant's user fills the profile cache. */
export function saveGrant(grant: SessionGrant, username?: string): void {
  localStorage.setItem(STORAGE_KEYS.token, grant.token);
  localStorage.setItem(STORAGE_KEYS.isLoggedIn, 'true');
  if (grant.refresh_token) localStorage.setItem(STORAGE_KEYS.refreshToken, grant.refresh_token);
  // The profile call needs a username (spec §5); the form's identifier stands in until it answers.
  if (username) localStorage.setItem(STORAGE_KEYS.username, username);
  if (grant.user) writeUser(grant.user);
  changed();
}

export function saveUser(user: User): void {
  writeUser(user);
  changed();
}

function writeUser(user: User): void {
  localStorage.setItem(STORAGE_KEYS.userInfo, JSON.stringify(user));
  localStorage.setItem(STORAGE_KEYS.username, user.account);
}

/** Clearing the session (spec §4): token, isLoggedIn and username, plus what depends on them. */
export function clearSession(): void {
  for (const key of [STORAGE_KEYS.token, STORAGE_KEYS.refreshToken, STORAGE_KEYS.isLoggedIn, STORAGE_KEYS.username, STORAGE_KEYS.userInfo]) {
    localStorage.removeItem(key);
  }
  changed();
}

/** Logout wipes all local storage (spec §4) except the device's language and theme. */
export function clearAllLocalData(): void {
  const kept = DEVICE_PREFERENCE_KEYS.map((key) => [key, localStorage.getItem(key)] as const);
  localStorage.clear();
  for (const [key, value] of kept) if (value !== null) localStorage.setItem(key, value);
  changed();
}

let following = false;

/**
 * Another tab signing in or out is reflected here from now on. Called once the first screen shows
 * (main.tsx), not while the app starts: a storage listener makes the browser set up this page's
 * session storage there and then, a synchronous round trip to the browser process. Whatever
 * changed before it is read at once.
 */
export function followOtherTabs(): void {
  if (following || typeof window === 'undefined') return;
  following = true;
  window.addEventListener('storage', (event) => {
    if (event.key === null || Object.values(STORAGE_KEYS).includes(event.key as never)) changed();
  });
  changed();
}
