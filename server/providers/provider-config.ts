// Provider settings from the environment: keys, base URLs and model names of each cloud adapter,
// and which adapter serves each capability (GENERATION_*). Checked like server/config.ts: a bad
// value stops the server at start with a message naming the variable. Without keys everything is
// served by the built-in `local` engine.
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../config-error.js';
import { loadWorkflow, SHIPPED_WORKFLOWS, WorkflowError, type WorkflowKind } from './comfyui/comfyui-workflow.js';
import type { ComfyWorkflowFiles } from './comfyui/comfyui-provider.js';

export const PROVIDER_IDS = ['local', 'gemini', 'openai', 'minimax', 'kling', 'comfyui'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];
export type CloudProviderId = Exclude<ProviderId, 'local'>;

export const CAPABILITY_NAMES = ['analyse', 'images', 'prompts', 'video', 'enhance'] as const;
export type CapabilityName = (typeof CAPABILITY_NAMES)[number];

export const CAPABILITY_VARIABLE: Record<CapabilityName, string> = {
  analyse: 'GENERATION_ANALYSE',
  images: 'GENERATION_IMAGES',
  prompts: 'GENERATION_PROMPTS',
  video: 'GENERATION_VIDEO',
  enhance: 'GENERATION_ENHANCE',
};

export const DEFAULT_MODELS = {
  geminiText: 'gemini-2.5-flash',
  geminiImage: 'gemini-2.5-flash-image',
  openaiText: 'gpt-4.1-mini',
  /**
   * Only on OpenAI itself (no OPENAI_BASE_URL): a LAN Ollama or LM Studio box has no image side.
   * gpt-image-1 was shut down on 23 Oct 2026; the SDK's documents name this as its successor, and
   * it takes images/edits (without input_fidelity, which only gpt-image-1.5 takes as 'high').
   */
  openaiImage: 'gpt-image-2.5-sunburst',
  minimaxVideo: 'MiniMax-Hailuo-02',
  klingVideo: 'kling-v2-1',
} as const;

export const DEFAULT_BASE_URLS = {
  minimax: 'https://api.minimax.io',
  kling: 'https://api-singapore.klingai.com',
} as const;

export interface ProviderConfig {
  gemini?: { apiKey: string; baseUrl?: string; textModel: string; imageModel: string };
  openai?: { apiKey: string; baseUrl?: string; textModel: string; imageModel?: string };
  minimax?: { apiKey: string; baseUrl: string; videoModel: string };
  kling?: { accessKey: string; secretKey: string; baseUrl: string; videoModel: string };
  /** A self-hosted ComfyUI server and the workflow file of each capability. */
  comfyui?: { baseUrl: string; token?: string; workflows: ComfyWorkflowFiles };
  /** The adapter serving each capability. */
  serve: Record<CapabilityName, ProviderId>;
}

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional());
const model = (fallback: string) => z.preprocess(emptyToUndefined, z.string().trim().default(fallback));
const baseUrl = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .regex(/^https?:\/\/[^/\s]+/, 'must be an http:// or https:// URL')
    .optional(),
);
const providerChoice = z.preprocess(
  emptyToUndefined,
  z.enum(PROVIDER_IDS, { error: () => `must be one of ${PROVIDER_IDS.join(', ')}` }).optional(),
);

const providerEnvSchema = z.object({
  GEMINI_API_KEY: optionalString,
  GEMINI_BASE_URL: baseUrl,
  GEMINI_TEXT_MODEL: model(DEFAULT_MODELS.geminiText),
  GEMINI_IMAGE_MODEL: model(DEFAULT_MODELS.geminiImage),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: baseUrl,
  OPENAI_TEXT_MODEL: model(DEFAULT_MODELS.openaiText),
  OPENAI_IMAGE_MODEL: optionalString,
  MINIMAX_API_KEY: optionalString,
  MINIMAX_BASE_URL: baseUrl,
  MINIMAX_VIDEO_MODEL: model(DEFAULT_MODELS.minimaxVideo),
  KLING_ACCESS_KEY: optionalString,
  KLING_SECRET_KEY: optionalString,
  KLING_BASE_URL: baseUrl,
  KLING_VIDEO_MODEL: model(DEFAULT_MODELS.klingVideo),
  COMFYUI_URL: baseUrl,
  COMFYUI_TOKEN: optionalString,
  COMFYUI_WORKFLOW_IMAGES: optionalString,
  COMFYUI_WORKFLOW_ENHANCE: optionalString,
  COMFYUI_WORKFLOW_VIDEO: optionalString,
  COMFYUI_WORKFLOW_VIDEO_FIRST_LAST: optionalString,
  GENERATION_ANALYSE: providerChoice,
  GENERATION_IMAGES: providerChoice,
  GENERATION_PROMPTS: providerChoice,
  GENERATION_VIDEO: providerChoice,
  GENERATION_ENHANCE: providerChoice,
});

/** What an adapter offers once configured (OpenAI's images only with an image model). */
export function capabilitiesOf(provider: ProviderId, config: Omit<ProviderConfig, 'serve'>): CapabilityName[] {
  switch (provider) {
    case 'local':
      return [...CAPABILITY_NAMES];
    case 'gemini':
      return ['analyse', 'images', 'prompts', 'enhance'];
    case 'openai':
      return config.openai?.imageModel ? ['analyse', 'images', 'prompts', 'enhance'] : ['analyse', 'prompts', 'enhance'];
    case 'minimax':
    case 'kling':
      return ['video'];
    case 'comfyui':
      return ['images', 'video', 'enhance'];
  }
}

const KEY_VARIABLES: Record<CloudProviderId, string> = {
  gemini: 'GEMINI_API_KEY',
  openai: 'OPENAI_API_KEY',
  minimax: 'MINIMAX_API_KEY',
  kling: 'KLING_ACCESS_KEY and KLING_SECRET_KEY',
  comfyui: 'COMFYUI_URL',
};

/** Cloud adapters in the order a capability's default is looked for (ComfyUI last: a cloud key set next to it wins unless GENERATION_* says otherwise). */
const DEFAULT_ORDER: CloudProviderId[] = ['gemini', 'openai', 'minimax', 'kling', 'comfyui'];

export function readProviderConfig(env: Record<string, string | undefined> = process.env): ProviderConfig {
  const parsed = providerEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw configError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.OPENAI_API_KEY && e.OPENAI_IMAGE_MODEL) {
    const problem = imageModelProblem(e.OPENAI_IMAGE_MODEL, Boolean(e.OPENAI_BASE_URL));
    if (problem) problems.push(`OPENAI_IMAGE_MODEL: ${problem}`);
  }
  if (Boolean(e.KLING_ACCESS_KEY) !== Boolean(e.KLING_SECRET_KEY)) {
    problems.push(e.KLING_ACCESS_KEY ? 'KLING_SECRET_KEY: required when KLING_ACCESS_KEY is set' : 'KLING_ACCESS_KEY: required when KLING_SECRET_KEY is set');
  }
  const comfyWorkflows = e.COMFYUI_URL
    ? comfyWorkflowFiles(
        {
          images: e.COMFYUI_WORKFLOW_IMAGES,
          enhance: e.COMFYUI_WORKFLOW_ENHANCE ?? e.COMFYUI_WORKFLOW_IMAGES,
          video: e.COMFYUI_WORKFLOW_VIDEO,
          videoFirstLast: e.COMFYUI_WORKFLOW_VIDEO_FIRST_LAST,
        },
        problems,
      )
    : undefined;
  const adapters: Omit<ProviderConfig, 'serve'> = {
    ...(e.GEMINI_API_KEY
      ? { gemini: { apiKey: e.GEMINI_API_KEY, baseUrl: e.GEMINI_BASE_URL, textModel: e.GEMINI_TEXT_MODEL, imageModel: e.GEMINI_IMAGE_MODEL } }
      : {}),
    ...(e.OPENAI_API_KEY
      ? {
          openai: {
            apiKey: e.OPENAI_API_KEY,
            baseUrl: e.OPENAI_BASE_URL,
            textModel: e.OPENAI_TEXT_MODEL,
            imageModel: e.OPENAI_IMAGE_MODEL ?? (e.OPENAI_BASE_URL ? undefined : DEFAULT_MODELS.openaiImage),
          },
        }
      : {}),
    ...(e.MINIMAX_API_KEY
      ? { minimax: { apiKey: e.MINIMAX_API_KEY, baseUrl: e.MINIMAX_BASE_URL ?? DEFAULT_BASE_URLS.minimax, videoModel: e.MINIMAX_VIDEO_MODEL } }
      : {}),
    ...(e.KLING_ACCESS_KEY && e.KLING_SECRET_KEY
      ? {
          kling: {
            accessKey: e.KLING_ACCESS_KEY,
            secretKey: e.KLING_SECRET_KEY,
            baseUrl: e.KLING_BASE_URL ?? DEFAULT_BASE_URLS.kling,
            videoModel: e.KLING_VIDEO_MODEL,
          },
        }
      : {}),
    ...(e.COMFYUI_URL && comfyWorkflows
      ? { comfyui: { baseUrl: e.COMFYUI_URL, ...(e.COMFYUI_TOKEN ? { token: e.COMFYUI_TOKEN } : {}), workflows: comfyWorkflows } }
      : {}),
  };
  const serve = {} as Record<CapabilityName, ProviderId>;
  for (const capability of CAPABILITY_NAMES) {
    const variable = CAPABILITY_VARIABLE[capability];
    const chosen = e[variable as keyof typeof e] as ProviderId | undefined;
    if (chosen === undefined) {
      serve[capability] = DEFAULT_ORDER.find((p) => adapters[p] && capabilitiesOf(p, adapters).includes(capability)) ?? 'local';
      continue;
    }
    serve[capability] = chosen;
    if (chosen === 'local') continue;
    if (!adapters[chosen]) {
      problems.push(`${variable}: ${chosen} needs ${KEY_VARIABLES[chosen]}`);
    } else if (!capabilitiesOf(chosen, adapters).includes(capability)) {
      const extra = chosen === 'openai' && capability === 'images' ? ' (set OPENAI_IMAGE_MODEL for an endpoint with an image model)' : '';
      problems.push(`${variable}: ${chosen} does not offer ${capability}; it offers ${capabilitiesOf(chosen, adapters).join(', ')}${extra}`);
    }
  }
  if (problems.length > 0) throw configError(problems);
  return { ...adapters, serve };
}

const COMFY_WORKFLOW_SLOTS: { slot: keyof ComfyWorkflowFiles; kind: WorkflowKind; variable: string }[] = [
  { slot: 'images', kind: 'images', variable: 'COMFYUI_WORKFLOW_IMAGES' },
  { slot: 'enhance', kind: 'images', variable: 'COMFYUI_WORKFLOW_ENHANCE' },
  { slot: 'video', kind: 'video', variable: 'COMFYUI_WORKFLOW_VIDEO' },
  { slot: 'videoFirstLast', kind: 'video-first-last-frame', variable: 'COMFYUI_WORKFLOW_VIDEO_FIRST_LAST' },
];

/**
 * The workflow file of each ComfyUI capability (the shipped one unless a variable names another),
 * each read and checked now: a file that is missing, not in API format, or without the node
 * titles its capability needs stops the server at start, naming the variable.
 */
function comfyWorkflowFiles(chosen: Partial<Record<keyof ComfyWorkflowFiles, string>>, problems: string[]): ComfyWorkflowFiles {
  const files = {} as ComfyWorkflowFiles;
  for (const { slot, kind, variable } of COMFY_WORKFLOW_SLOTS) {
    const file = chosen[slot] ? path.resolve(chosen[slot]) : SHIPPED_WORKFLOWS[kind];
    files[slot] = file;
    try {
      loadWorkflow(file, kind);
    } catch (error) {
      if (!(error instanceof WorkflowError)) throw error;
      problems.push(`${variable}: ${error.message}`);
    }
  }
  return files;
}

/** OpenAI image models that edit images (images/edits), named in the message refusing one that cannot. */
export const EDITING_IMAGE_MODELS =
  'gpt-image-2.5-sunburst, gpt-image-2.5-flare, gpt-image-2.6-sunburst, gpt-image-2.6-flare, gpt-image-2, gpt-image-1.5, gpt-image-1-mini (or another gpt-image model), chatgpt-image-latest';

/** Models OpenAI no longer serves, by its SDK's documents, and since when. */
const RETIRED_ON_OPENAI: { pattern: RegExp; since: string }[] = [
  { pattern: /^gpt-image-1(-\d{4}-\d{2}-\d{2})?$/, since: 'was shut down on 23 Oct 2026' },
  // dall-e-3 was retired then too, and never edited images: refused below for that, gateway or not.
  { pattern: /^dall-e-2(\b|-)/, since: 'was retired on 12 May 2026' },
];

/**
 * Why an OpenAI image model cannot serve here, or undefined. Every image flow starts from an
 * image (the uploads, the image being regenerated, the workshop's picture), so the model must
 * take images/edits: GPT image models and dall-e-2 do, dall-e-3 does not. On OpenAI itself the
 * name must be one of those that OpenAI still serves; a gateway (OPENAI_BASE_URL) may name its
 * models as it likes (and may still serve dall-e-2 or gpt-image-1).
 */
export function imageModelProblem(model: string, gateway: boolean): string | undefined {
  if (!gateway) {
    const retired = RETIRED_ON_OPENAI.find((r) => r.pattern.test(model));
    if (retired) return `${model} ${retired.since}, so OpenAI answers no call to it; use one it serves: ${EDITING_IMAGE_MODELS}`;
  }
  const edits = /^(gpt-image-|chatgpt-image-)/.test(model) || /^dall-e-2(\b|-)/.test(model);
  if (edits || (gateway && !model.startsWith('dall-e'))) return undefined;
  return `${model} cannot edit images (images/edits), and every image here is made from the uploaded ones; use one that can: ${EDITING_IMAGE_MODELS}`;
}

function configError(lines: string[]): ConfigError {
  return new ConfigError(`Invalid configuration:\n${lines.map((line) => `  ${line}`).join('\n')}`);
}
