import type { Selectable } from 'kysely';
import { z } from 'zod';
import { USER_LEVELS, type UsersTable } from '../../db/schema.js';

export type UserRow = Selectable<UsersTable>;

/** What the API shows of a user: never the password hash nor the token version; the flag as a boolean. */
export const userViewSchema = z
  .object({
    id: z.number().int(),
    account: z.string(),
    wechat_account: z.string().nullable(),
    phone: z.string().nullable(),
    international_code: z.string(),
    display_name: z.string(),
    user_level: z.enum(USER_LEVELS),
    disabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'User' });
export type UserView = z.output<typeof userViewSchema>;

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
