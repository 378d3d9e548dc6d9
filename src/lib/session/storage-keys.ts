// The browser storage keys of spec §3. The refresh token is ours: the spec only says a login
// reply may carry one, and rotating it needs somewhere to live.
export const STORAGE_KEYS = {
  token: 'token',
  refreshToken: 'refreshToken',
  isLoggedIn: 'isLoggedIn',
  username: 'username',
  userInfo: 'userInfo',
  language: 'language',
  theme: 'theme',
  notifications: 'notifications',
} as const;

/** Device preferences that outlive a session (a shared tablet keeps its language and theme). */
export const DEVICE_PREFERENCE_KEYS: readonly string[] = [STORAGE_KEYS.language, STORAGE_KEYS.theme];
