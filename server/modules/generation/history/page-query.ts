// Load-more pagination of the history lists: newest first, `?cursor=` is the last id of the page
// before (ids only grow, so a page never repeats or skips a row that was added meanwhile).
import { z } from 'zod';
import { idField, integerField } from '../../../http/strict-numbers.js';
import { GENERATION_STATUSES } from '../store/generation-tables.js';
import type { PageQuery } from '../store/generation-repository.js';

export const MAX_PAGE_SIZE = 50;

export const pageQuerySchema = z.object({
  cursor: idField().optional(),
  limit: integerField(1, MAX_PAGE_SIZE).default(20),
  status: z.enum(GENERATION_STATUSES).optional(),
});

export interface Page<T> {
  items: T[];
  /** Pass as ?cursor= for the next page; null on the last page. */
  next_cursor: string | null;
  has_more: boolean;
}

/** A page of `item` for the OpenAPI document, named `id`. */
export function pageSchema<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      items: z.array(item),
      next_cursor: z.string().nullable().meta({ description: 'Pass as ?cursor= for the next page; null on the last page.' }),
      has_more: z.boolean(),
    })
    .meta({ id });
}

/** The repository reads limit + 1 rows: the extra one only says there is more. */
export function pageOf<R extends { id: number }, T>(rows: R[], page: Pick<PageQuery, 'limit'>, views: T[]): Page<T> {
  const hasMore = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  return {
    items: views.slice(0, page.limit),
    next_cursor: hasMore ? String(shown.at(-1)!.id) : null,
    has_more: hasMore,
  };
}
