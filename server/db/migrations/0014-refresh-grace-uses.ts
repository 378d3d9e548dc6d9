import type { Kysely } from 'kysely';

// How many successors a rotated refresh token was given within its grace period
// (server/modules/auth/refresh-tokens.ts). Counted on the token's own row, so the bound holds as
// one guarded update even when many replays of the token arrive at once.
export function refreshGraceUsesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('refresh_tokens')
        .addColumn('grace_uses', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('refresh_tokens').dropColumn('grace_uses').execute();
    },
  };
}
