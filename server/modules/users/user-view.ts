import type { Selectable } from 'kysely';
import type { UsersTable } from '../../db/schema.js';

export type UserRow = Selectable<UsersTable>;

/** What the API shows of a user: never the password hash nor the token version; the flag as a boolean. */
export type UserView = Omit<UserRow, 'password_hash' | 'disabled' | 'token_version'> & { disabled: boolean };

export function toUserView(row: UserRow): UserView {
  return {
    id: Number(row.id),
    account: row.account,
    wechat_account: row.wechat_account,
    phone: row.phone,
    international_code: row.international_code,
    display_name: row.display_name,
    user_level: row.user_level,
    disabled: Boolean(Number(row.disabled)),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
