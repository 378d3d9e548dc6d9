// The JSON answers the text models are asked for, as zod schemas: one source for the JSON Schema
// sent to the provider (Gemini's responseSchema, OpenAI's response_format) and for checking what
// comes back. A reply that does not match is a 'bad_response', never passed on half-read.
import { z } from 'zod';
import {
  CAMERA_MOVES,
  ProviderError,
  type AnalysisData,
  type AnalysisResult,
  type CameraMove,
  type VideoPromptDraft,
} from '../capabilities.js';

const text = z.string().trim().min(1);

/** The analysis answer: the prose first (it is streamed while it arrives), then AnalysisData. */
export const analysisAnswerSchema = z.object({
  // Not trimmed: the result's text must be exactly the characters streamed.
  analysis: z
    .string()
    .min(1)
    .refine((value) => value.trim().length > 0, 'empty')
    .describe('The analysis as prose for the designer.'),
  summary: text.describe('The analysis in one or two sentences.'),
  colors: z
    .array(
      z.object({
        hex: z.string().regex(/^#[0-9A-Fa-f]{6}$/).describe('#RRGGBB'),
        name: text,
        share: z.number().min(0).max(1).describe('Share of the pattern area, 0 to 1.'),
      }),
    )
    .min(1)
    .max(8)
    .describe('Dominant colours of the pattern images, largest share first.'),
  pattern: z.object({ kind: text, scale: text, orientation: text, repeat: text }),
  texture: text,
  image_prompt: text.describe('The prompt for the image generator.'),
  moments_text: text.describe('Marketing copy for a social post.'),
  style: text,
});
export type AnalysisAnswer = z.infer<typeof analysisAnswerSchema>;

/** The name of the field streamed as prose while the JSON arrives. */
export const ANALYSIS_PROSE_FIELD = 'analysis';

export function toAnalysisResult(answer: AnalysisAnswer, model: string): AnalysisResult {
  const data: AnalysisData = {
    summary: answer.summary,
    colors: [...answer.colors]
      .map((c) => ({ hex: c.hex.toLowerCase(), name: c.name, share: c.share }))
      .sort((a, b) => b.share - a.share),
    pattern: answer.pattern,
    texture: answer.texture,
    image_prompt: answer.image_prompt,
    moments_text: answer.moments_text,
    style: answer.style,
  };
  return { text: answer.analysis, data, model };
}

const videoPromptSchema = z.object({
  prompt: text.max(2000),
  camera: z.array(z.enum(CAMERA_MOVES)).min(1).max(3),
  scene: text,
  mood: text,
});

/** Exactly `count` options are asked for. */
export function videoPromptsSchema(count: number) {
  return z.object({ prompts: z.array(videoPromptSchema).min(count).max(count) });
}

/** Reads the options, accepting camera moves in any letter case and more options than asked (the first `count` are kept). */
export function readVideoPrompts(raw: unknown, count: number, provider: string): VideoPromptDraft[] {
  const byLowerCase = new Map(CAMERA_MOVES.map((move) => [move.toLowerCase(), move] as const));
  const normalised = normaliseCamera(raw, byLowerCase);
  const answer = parseWith(z.object({ prompts: z.array(videoPromptSchema).min(count) }), normalised, provider, 'video prompts');
  return answer.prompts.slice(0, count);
}

function normaliseCamera(raw: unknown, byLowerCase: Map<string, CameraMove>): unknown {
  if (!isRecord(raw) || !Array.isArray(raw.prompts)) return raw;
  return {
    ...raw,
    prompts: raw.prompts.map((p: unknown) =>
      isRecord(p) && Array.isArray(p.camera)
        ? { ...p, camera: p.camera.map((m: unknown) => (typeof m === 'string' ? (byLowerCase.get(m.trim().toLowerCase()) ?? m) : m)) }
        : p,
    ),
  };
}

export const enhancedTextSchema = z.object({
  // First, so it streams while the JSON arrives; not trimmed: the result is exactly what was streamed.
  text: z
    .string()
    .min(1)
    .refine((value) => value.trim().length > 0, 'empty')
    .describe('The improved text.'),
  confidence: z.number().min(0).max(1).describe('How sure you are that it is better than the original, 0 to 1.'),
});
export type EnhancedText = z.infer<typeof enhancedTextSchema>;

/** The JSON Schema of a zod schema as providers take it (no $schema key: Gemini's SDK routes such schemas elsewhere). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'openapi-3.0' }) as Record<string, unknown>;
}

/** Parses a model's JSON text against a schema; anything else is a 'bad_response'. */
export function parseJsonAnswer<T>(schema: z.ZodType<T>, json: string, provider: string, what: string): T {
  return parseWith(schema, parseJson(json, provider, what), provider, what);
}

export function parseJson(json: string, provider: string, what: string): unknown {
  try {
    return JSON.parse(stripCodeFence(json));
  } catch (error) {
    throw new ProviderError('bad_response', `${provider} answered the ${what} with text that is not JSON`, { provider, cause: error });
  }
}

export function parseWith<T>(schema: z.ZodType<T>, raw: unknown, provider: string, what: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new ProviderError('bad_response', `${provider} answered the ${what} in the wrong shape (${issues})`, { provider, cause: parsed.error });
  }
  return parsed.data;
}

/** Some OpenAI-compatible servers wrap JSON in a Markdown fence even when asked for JSON. */
function stripCodeFence(json: string): string {
  const match = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(json);
  return match ? match[1]! : json;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
