// The signed-in user as the main API returns it (GET /user/profile and every sign-in reply).
export type UserLevel = 'ADMIN' | 'DESIGNER' | 'GENERAL';

export interface User {
  id: number;
  account: string;
  wechat_account: string | null;
  phone: string | null;
  international_code: string | null;
  display_name: string | null;
  user_level: UserLevel;
  disabled: boolean;
  created_at: string;
  updated_at: string;
}

/** Token pair plus profile: what every sign-in and refresh call answers with. */
export interface SessionGrant {
  token: string;
  refresh_token?: string;
  user?: User;
}

const LEVELS: readonly string[] = ['ADMIN', 'DESIGNER', 'GENERAL'];

export function isUserLevel(value: unknown): value is UserLevel {
  return typeof value === 'string' && LEVELS.includes(value);
}

/** The name to greet someone by: display name, else account. */
export function displayNameOf(user: Pick<User, 'display_name' | 'account'>): string {
  return user.display_name?.trim() || user.account;
}
