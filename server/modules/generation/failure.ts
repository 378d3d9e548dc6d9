// How a failed job is stored and told: the spec's message for what failed (its key, e.g.
// analysis_error), why (the provider's error kind, e.g. quota), and the provider's own words for
// the log. The message is put together in the reader's language when it is read.
import { z } from 'zod';
import { failureKind } from '../../jobs/retryable-error.js';
import { isMessageKey, message, type Locale, type MessageKey } from '../../http/messages.js';
import type { FailureColumns } from './store/generation-tables.js';

export function failureColumns(error: unknown, key: MessageKey, formatKey?: MessageKey): FailureColumns {
  // A provider's failure, or a passing outage the job engine retried until its budget ran out.
  const kind = failureKind(error);
  if (kind !== 'internal' && error instanceof Error) {
    return {
      error_code: kind,
      error_key: kind === 'bad_response' && formatKey ? formatKey : key,
      error_detail: error.message.slice(0, 1000),
    };
  }
  return {
    error_code: 'internal',
    error_key: key,
    error_detail: (error instanceof Error ? error.message : String(error)).slice(0, 1000),
  };
}

export const NO_FAILURE: FailureColumns = { error_code: null, error_key: null, error_detail: null };


/** "Analysis error: the AI service quota or balance is used up; …" in the reader's language. */
export function failureMessage(row: FailureColumns, locale: Locale): string | null {
  if (!row.error_key) return null;
  const what = message(isMessageKey(row.error_key) ? row.error_key : 'internal_error', locale);
  const reasonKey = `reason_${row.error_code ?? 'internal'}`;
  if (!isMessageKey(reasonKey)) return what;
  return message('failure_with_reason', locale, { what, why: message(reasonKey, locale) });
}

/** A failure as the API tells it: the provider's error kind (or cancelled, internal) and the words for the reader. */
export const itemErrorSchema = z.object({ code: z.string(), message: z.string() }).meta({ id: 'ItemError' });
export type ItemError = z.output<typeof itemErrorSchema>;

/** The error part of a view: null while nothing failed. */
export function failureView(row: FailureColumns, locale: Locale): ItemError | null {
  const text = failureMessage(row, locale);
  return text ? { code: row.error_code ?? 'internal', message: text } : null;
}

export const candidateSummarySchema = z
  .object({ made: z.number().int(), refused: z.number().int(), total: z.number().int(), message: z.string().nullable() })
  .meta({ id: 'CandidateSummary' });
export type CandidateSummary = z.output<typeof candidateSummarySchema>;

/**
 * How a set of candidates ended, for `complete` and the request view: the count made, the count
 * refused, and (when some are missing) why, in the reader's language: "1 of 6 images not made:
 * blocked by the AI service's safety filter". The most frequent reason speaks for all.
 */
export function candidateSummary(rows: (FailureColumns & { status: string })[], locale: Locale): CandidateSummary {
  const made = rows.filter((r) => r.status === 'completed').length;
  const failed = rows.filter((r) => r.status === 'failed');
  if (failed.length === 0) return { made, refused: 0, total: rows.length, message: null };
  const counts = new Map<string, number>();
  for (const r of failed) counts.set(r.error_code ?? 'internal', (counts.get(r.error_code ?? 'internal') ?? 0) + 1);
  const code = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const vars = { refused: failed.length, total: rows.length };
  const reasonKey = `reason_${code}`;
  const text =
    code === 'safety'
      ? message('candidates_blocked', locale, vars)
      : message('candidates_missing', locale, { ...vars, why: message(isMessageKey(reasonKey) ? reasonKey : 'reason_internal', locale) });
  return { made, refused: failed.length, total: rows.length, message: text };
}
