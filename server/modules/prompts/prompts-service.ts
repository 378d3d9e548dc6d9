// Prompt management rules (spec §4, §5): one prompt per type, a type that exists can only be
// edited, deletion is final. Mutations run through the idempotency store.
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../http/app-error.js';
import type { UserRow } from '../users/user-view.js';
import type { IdempotencyStore, IdempotentResult } from '../../http/idempotency-store.js';
import { promptDb, type PromptDb, type PromptType } from './prompt-tables.js';
import { toPromptView, type PromptView } from './prompt-view.js';
import type { PromptsRepository } from './prompts-repository.js';

export interface MutationContext {
  actor: UserRow;
  idempotencyKey: string | undefined;
  fingerprint: string;
}

export function createPromptsService(db: PromptDb, prompts: PromptsRepository, idempotency: IdempotencyStore) {
  const nameOf = (actor: UserRow) => actor.display_name || actor.account;

  return {
    async list(): Promise<PromptView[]> {
      return (await prompts.list(db)).map(toPromptView);
    },
    async get(type: PromptType): Promise<PromptView> {
      const row = await prompts.find(db, type);
      if (!row) throw new AppError(404, 'prompt_not_found');
      return toPromptView(row);
    },
    create(ctx: MutationContext, type: PromptType, content: string): Promise<IdempotentResult> {
      return idempotency.run(Number(ctx.actor.id), ctx.idempotencyKey, ctx.fingerprint, async (base) => {
        const trx = promptDb(base);
        if (await prompts.find(trx, type)) throw new AppError(409, 'prompt_exists');
        try {
          const row = await prompts.insert(trx, type, content, nameOf(ctx.actor));
          return { status: 201, messageKey: 'prompt_saved', data: toPromptView(row) };
        } catch (error) {
          // Two administrators creating the same type at once: the second is refused the same way.
          if (isUniqueViolation(error)) throw new AppError(409, 'prompt_exists');
          throw error;
        }
      });
    },
    update(ctx: MutationContext, type: PromptType, content: string): Promise<IdempotentResult> {
      return idempotency.run(Number(ctx.actor.id), ctx.idempotencyKey, ctx.fingerprint, async (base) => {
        const trx = promptDb(base);
        const row = await prompts.update(trx, type, content, nameOf(ctx.actor));
        if (!row) throw new AppError(404, 'prompt_not_found');
        return { status: 200, messageKey: 'prompt_saved', data: toPromptView(row) };
      });
    },
    remove(ctx: MutationContext, type: PromptType): Promise<IdempotentResult> {
      return idempotency.run(Number(ctx.actor.id), ctx.idempotencyKey, ctx.fingerprint, async (base) => {
        const trx = promptDb(base);
        if (!(await prompts.remove(trx, type))) throw new AppError(404, 'prompt_not_found');
        return { status: 200, messageKey: 'prompt_deleted', data: { type } };
      });
    },
  };
}

export type PromptsService = ReturnType<typeof createPromptsService>;
