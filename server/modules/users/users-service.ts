// Administration of accounts, with the rules that keep the workspace administrable: nobody deletes,
// disables or demotes themselves, and the last active administrator stays one.
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { UserLevel } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import type { PasswordHasher } from '../auth/passwords.js';
import type { RefreshTokens } from '../auth/refresh-tokens.js';
import { checkAccountName } from './account-name.js';
import { toUserView, type UserRow, type UserView } from './user-view.js';
import type { UserChanges, UsersRepository } from './users-repository.js';

export interface CreateUserInput {
  account: string;
  password?: string;
  user_level: UserLevel;
  display_name?: string;
  phone?: string | null;
  international_code?: string;
  wechat_account?: string | null;
}

export type UpdateUserInput = Partial<Omit<CreateUserInput, 'account'>> & { disabled?: boolean };

export function createUsersService(users: UsersRepository, hasher: PasswordHasher, refreshTokens: RefreshTokens) {
  async function withUniqueCheck<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, 'account_exists');
      throw error;
    }
  }

  async function mustFind(id: number): Promise<UserRow> {
    const user = await users.findById(id);
    if (!user) throw new AppError(404, 'not_found');
    return user;
  }

  /** Would this change leave the workspace without an active administrator? */
  async function removesLastAdmin(target: UserRow): Promise<boolean> {
    return target.user_level === 'ADMIN' && !Number(target.disabled) && (await users.countActiveAdmins()) <= 1;
  }

  return {
    async list(page: number, pageSize: number, search?: string) {
      const { items, total } = await users.list(page, pageSize, search);
      return { items: items.map(toUserView), total, page, page_size: pageSize };
    },
    async get(id: number): Promise<UserView> {
      return toUserView(await mustFind(id));
    },
    async create(input: CreateUserInput): Promise<UserView> {
      // The admin API and the operator command both come here, so both keep the same rule.
      const account = checkAccountName(input.account);
      const row = await withUniqueCheck(async () =>
        users.create({
          account,
          wechat_account: input.wechat_account ?? null,
          phone: input.phone ?? null,
          international_code: input.international_code ?? '86',
          display_name: input.display_name ?? account,
          user_level: input.user_level,
          password_hash: input.password ? await hasher.hash(input.password) : null,
        }),
      );
      return toUserView(row);
    },
    /** actor is null for the operator CLI, which may change anyone but the last administrator. */
    async update(actor: UserRow | null, id: number, input: UpdateUserInput): Promise<UserView> {
      const target = await mustFind(id);
      const demotes = input.user_level !== undefined && input.user_level !== 'ADMIN';
      const disables = input.disabled === true;
      if ((demotes || disables) && actor && Number(actor.id) === id) throw new AppError(400, 'self_change');
      if ((demotes || disables) && (await removesLastAdmin(target))) throw new AppError(409, 'last_admin');
      const { password, ...rest } = input;
      const changes: UserChanges = { ...rest };
      if (password) changes.password_hash = await hasher.hash(password);
      const row = await withUniqueCheck(() => users.update(id, changes));
      if (!row) throw new AppError(404, 'not_found');
      if (password || disables) {
        await refreshTokens.revokeAllForUser(id);
        await users.bumpTokenVersion(id);
      }
      return toUserView(row);
    },
    async remove(actor: UserRow | null, id: number): Promise<void> {
      const target = await mustFind(id);
      if (actor && Number(actor.id) === id) throw new AppError(400, 'self_change');
      if (await removesLastAdmin(target)) throw new AppError(409, 'last_admin');
      await users.remove(id);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
