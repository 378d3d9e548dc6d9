import type { Insertable, Kysely } from 'kysely';
import { containsText } from '../../db/contains-pattern.js';
import type { Database, UsersTable } from '../../db/schema.js';
import type { UserRow } from './user-view.js';

export type NewUser = Omit<Insertable<UsersTable>, 'id' | 'disabled' | 'token_version' | 'created_at' | 'updated_at'>;

export type UserChanges = Partial<NewUser & { disabled: boolean }>;

export function createUsersRepository(db: Kysely<Database>, now: () => Date) {
  return {
    findById: (id: number): Promise<UserRow | undefined> =>
      db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    findByAccount: (account: string) =>
      db.selectFrom('users').selectAll().where('account', '=', account).executeTakeFirst(),
    findByWechat: (wechat: string) =>
      db.selectFrom('users').selectAll().where('wechat_account', '=', wechat).executeTakeFirst(),
    findByPhone: (internationalCode: string, phone: string) =>
      db
        .selectFrom('users')
        .selectAll()
        .where('international_code', '=', internationalCode)
        .where('phone', '=', phone)
        .executeTakeFirst(),
    async create(user: NewUser): Promise<UserRow> {
      const t = now().toISOString();
      return db
        .insertInto('users')
        .values({ ...user, disabled: 0, created_at: t, updated_at: t })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async update(id: number, changes: UserChanges): Promise<UserRow | undefined> {
      const { disabled, ...rest } = changes;
      return db
        .updateTable('users')
        .set({
          ...rest,
          ...(disabled === undefined ? {} : { disabled: disabled ? 1 : 0 }),
          updated_at: now().toISOString(),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },
    /** Revokes every access token signed for the user so far. */
    async bumpTokenVersion(id: number): Promise<void> {
      await db
        .updateTable('users')
        .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },
    async remove(id: number): Promise<boolean> {
      const r = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async countActiveAdmins(): Promise<number> {
      const r = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_level', '=', 'ADMIN')
        .where('disabled', '=', 0)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async list(page: number, pageSize: number, search: string | undefined) {
      let q = db.selectFrom('users');
      if (search) {
        const text = search.toLowerCase();
        q = q.where((eb) =>
          eb.or([
            containsText(eb.fn<string>('lower', ['account']), text),
            containsText(eb.fn<string | null>('lower', ['display_name']), text),
            containsText(eb.fn<string | null>('lower', ['wechat_account']), text),
            containsText(eb.ref('phone'), text),
          ]),
        );
      }
      const [items, total] = await Promise.all([
        q
          .selectAll()
          .orderBy('id')
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
