// The generation module's form fields, shared by every call that takes them (analyse, regenerate,
// video prompts, videos, history edits and the workshop): text limits, fabric fields, request ids
// and the reader's language, each refused with a 400 naming its limit (spec §5/§9).
import type { FastifyRequest } from 'fastify';
import { AppError, type FieldError } from '../../http/app-error.js';
import { LOCALES, localeFrom, message, type Locale } from '../../http/messages.js';
import type { Aspect, FabricInfo } from '../../providers/capabilities.js';
import { PROMPT_MAX_LENGTH } from '../../../shared/prompts/prompt-rules.js';

/** A prompt or description: spec §9's prompt text rule, the one the PWA's fields keep. */
export const MAX_PROMPT_LENGTH = PROMPT_MAX_LENGTH;
export const ASPECTS: readonly Aspect[] = ['square', 'vertical', 'horizontal', 'auto'];

/** Spec §3's fabric form: short choices (a preset or a few words) and free text. */
export const FABRIC_FIELD_LIMITS: Record<keyof FabricInfo, number> = {
  fabric_name: 100,
  composition: 100,
  weight: 100,
  transparency: 100,
  luster: 100,
  drape: 100,
  touch: 100,
  thickness: 100,
  suggested_uses: 500,
  scene: 500,
  model_guidance: 500,
  color_restrictions: 500,
  accessories: 500,
  style: 500,
  target_market: 500,
  selling_points: 500,
  remarks: 500,
};

export const REQUEST_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** A 400 whose message names the first problem and whose data lists them all. */
export function refuse(
  errors: (FieldError & { key: 'text_too_long' | 'field_required'; max?: number })[],
): never {
  const first = errors[0]!;
  throw new AppError(400, first.key, {
    vars: { field: first.field, max: first.max ?? 0 },
    errors: errors.map(({ field, message: m }) => ({ field, message: m })),
  });
}

export function checkText(
  errors: Parameters<typeof refuse>[0],
  field: string,
  value: string | undefined,
  max: number,
  required = false,
): string | undefined {
  const text = value?.trim() ?? '';
  if (!text) {
    if (required)
      errors.push({ field, key: 'field_required', message: message('field_required', 'en-US', { field }) });
    return undefined;
  }
  // Counted in UTF-16 units, as the browser's maxlength counts.
  if (text.length > max) {
    errors.push({
      field,
      key: 'text_too_long',
      max,
      message: message('text_too_long', 'en-US', { field, max }),
    });
  }
  return text;
}

export function fabricFrom(fields: Record<string, string>, errors: Parameters<typeof refuse>[0]): FabricInfo {
  let given: Record<string, unknown> = {};
  const json = fields.fabric_info ?? fields.fabric;
  if (json) {
    try {
      const parsed: unknown = JSON.parse(json);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        given = parsed as Record<string, unknown>;
    } catch {
      throw new AppError(400, 'invalid_json');
    }
  }
  const fabric: FabricInfo = {};
  for (const [key, max] of Object.entries(FABRIC_FIELD_LIMITS) as [keyof FabricInfo, number][]) {
    const raw = fields[key] ?? given[key];
    const value = checkText(
      errors,
      key,
      typeof raw === 'string' ? raw : raw == null ? undefined : String(raw),
      max,
    );
    if (value) fabric[key] = value;
  }
  return fabric;
}

export function languageOf(value: string | undefined, request: FastifyRequest): Locale {
  const wanted = LOCALES.find((l) => l.toLowerCase() === value?.trim().toLowerCase());
  return wanted ?? localeFrom(value || request.headers['accept-language']);
}
