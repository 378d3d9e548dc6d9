// What the generation service asks of an AI provider, as six small capabilities. Each adapter
// (gemini, openai-compatible, minimax, kling, and the built-in `local` engine) implements the ones
// its service offers; the generation module only ever talks to these interfaces, never to a
// provider's SDK or wire format. Every call takes an AbortSignal and fails with ProviderError.
// The shapes that reach the API's answers too (fabric form, analysis, text changes) are zod schemas,
// their types inferred, so the OpenAPI document and the server read one definition.
import { z } from 'zod';
import type { CameraMove } from '../../shared/generation/camera-moves.js';
import type { EnhanceStyle } from '../../shared/workshop/workshop-options.js';

import { SUPPORTED_LANGUAGES } from '../../shared/i18n/languages.js';

export const languageSchema = z.enum(SUPPORTED_LANGUAGES);
export type Language = z.output<typeof languageSchema>;

/** Video and image aspect choices of the workflow (spec §3). */
export type Aspect = 'square' | 'vertical' | 'horizontal' | 'auto';

/** Camera moves, in MiniMax's bracket vocabulary (at most three combined in one prompt). */
export { CAMERA_MOVES, type CameraMove } from '../../shared/generation/camera-moves.js';

export interface InputImage {
  data: Buffer;
  /** image/png, image/jpeg, image/webp or image/gif (checked from the bytes before it gets here). */
  mimeType: string;
  role: 'model' | 'pattern' | 'source' | 'first-frame' | 'last-frame';
  width?: number;
  height?: number;
}

export interface GeneratedImage {
  data: Buffer;
  mimeType: string;
  width: number;
  height: number;
  /** What this candidate is, in the request's language (the local engine names its compositions). */
  label?: string;
  /** The same label in every language it has words for, so it follows the reader's language when shown. */
  labels?: Partial<Record<Language, string>>;
}

/** Spec §3 fabric info form. Every field is optional free text (a preset choice or the designer's own words). */
export const fabricInfoSchema = z
  .object({
    fabric_name: z.string().optional(),
    composition: z.string().optional(),
    weight: z.string().optional().meta({ description: 'g/m²' }),
    transparency: z.string().optional(),
    luster: z.string().optional(),
    drape: z.string().optional(),
    touch: z.string().optional(),
    thickness: z.string().optional(),
    suggested_uses: z.string().optional(),
    scene: z.string().optional(),
    model_guidance: z.string().optional(),
    color_restrictions: z.string().optional(),
    accessories: z.string().optional(),
    style: z.string().optional(),
    target_market: z.string().optional(),
    selling_points: z.string().optional(),
    remarks: z.string().optional(),
  })
  .meta({ id: 'FabricInfo' });
export type FabricInfo = z.output<typeof fabricInfoSchema>;

export interface AnalyseInput {
  /** The designer's image-generation prompt (from prompt management, edited for this run). */
  prompt: string;
  fabric: FabricInfo;
  /** Optional quick description. */
  description?: string;
  modelImages: InputImage[];
  patternImages: InputImage[];
  language: Language;
  signal: AbortSignal;
}

/** The structured analysis every adapter returns (JSON output by schema where the provider has it). */
export const analysisDataSchema = z
  .object({
    summary: z.string(),
    colors: z
      .array(z.object({ hex: z.string(), name: z.string(), share: z.number() }))
      .meta({ description: 'Dominant colours of the pattern images, largest share first.' }),
    pattern: z.object({ kind: z.string(), scale: z.string(), orientation: z.string(), repeat: z.string() }),
    texture: z.string(),
    image_prompt: z.string().meta({ description: 'The prompt the image generator gets for the candidates.' }),
    moments_text: z.string().meta({ description: 'Marketing copy for social posts ("moments text").' }),
    style: z.string(),
  })
  .meta({ id: 'AnalysisData' });
export type AnalysisData = z.output<typeof analysisDataSchema>;

export interface AnalysisResult {
  /** The analysis as prose, as it was streamed. */
  text: string;
  data: AnalysisData;
  /** Model name; the local engine's says it is a local preview. */
  model: string;
}

export interface Analyser {
  /**
   * Streams the analysis text piece by piece through onText, then resolves with the whole. When an
   * adapter asks again after a cut stream, it first calls onRestart: the text handed over so far
   * is void, and the new attempt's text follows from its start.
   */
  analyse(input: AnalyseInput, onText: (chunk: string) => void, onRestart?: () => void): Promise<AnalysisResult>;
}

/**
 * What a self-hosted engine (ComfyUI) says while it works: its place in the queue, or how far the
 * current stage is (sampler steps, video frames). Cloud providers say nothing of the kind.
 */
export interface TaskProgress {
  /** 0..1 of the whole task, when it can be told. */
  fraction?: number;
  /** Tasks ahead of this one in the engine's queue (0: next). */
  queueAhead?: number;
  /** The stage running now, counted in its own unit. */
  stage?: { unit: 'steps' | 'frames'; value: number; max: number };
}

export interface ImageGenerationInput {
  prompt: string;
  /** Model and pattern images, or the image being regenerated. */
  sources: InputImage[];
  count: number;
  aspect: Aspect;
  language: Language;
  /** Facts of an earlier analysis, when there was one. */
  analysis?: AnalysisData;
  signal: AbortSignal;
  /** Optional: how candidate `index` is coming along, for an adapter that can tell (ComfyUI). */
  onProgress?: (index: number, progress: TaskProgress) => void;
  /** Optional: where the job keeps each candidate's task id, for an adapter that names its tasks (ComfyUI). */
  tasks?: CandidateTasks;
}

/**
 * The task ids of a run's candidates, kept with their rows. An adapter that chooses a task's id
 * itself saves it before the request goes out, so a cancel and the next run after a crash know
 * the task whether the provider's answer came or not.
 */
export interface CandidateTasks {
  /** The task candidate `index` had started in an earlier run that was stopped, if any. */
  started(index: number): string | undefined;
  /** Keeps candidate `index`'s task id; resolves once it is saved. */
  save(index: number, taskId: string): Promise<void>;
  /**
   * After an abort: true when the run was stopped so that another goes on with its tasks (a
   * shutdown, the job taken over), so they are left running; false for a cancel or a time limit.
   */
  leftForNextRun(): boolean;
}

/** A candidate the provider did not make, and why (a safety block, or a rate limit left for later). */
export interface CandidateFailure {
  index: number;
  error: ProviderError;
}

export interface ImageGenerator {
  /**
   * Calls onImage as each image is ready (index in 0..count-1), then resolves with them: images[i]
   * is candidate i. Each candidate succeeds or fails on its own: those named in `failures` have no
   * image (a hole at their index). A failure that concerns every candidate (a bad key, a cancel)
   * rejects instead.
   */
  generateImages(
    input: ImageGenerationInput,
    onImage: (image: GeneratedImage, index: number) => void,
  ): Promise<{ images: GeneratedImage[]; model: string; failures?: CandidateFailure[] }>;
}

export interface VideoPromptDraft {
  prompt: string;
  camera: CameraMove[];
  scene: string;
  mood: string;
}

export interface PromptWriterInput {
  image: InputImage;
  fabric: FabricInfo;
  userPrompt: string;
  analysis?: AnalysisData;
  count: number;
  language: Language;
  signal: AbortSignal;
}

/** A piece of one option's prompt text as it is written: `offset` is where it starts in that prompt. */
export interface PromptDraftPiece {
  index: number;
  content: string;
  offset: number;
}

export interface PromptWriter {
  /**
   * The options; with onDraft, each option's prompt text is handed over as it is written (an
   * adapter that cannot stream just answers at the end). onRestart: as for Analyser.analyse.
   */
  writeVideoPrompts(
    input: PromptWriterInput,
    onDraft?: (piece: PromptDraftPiece) => void,
    onRestart?: () => void,
  ): Promise<{ prompts: VideoPromptDraft[]; model: string }>;
}

export type VideoKind = 'standard' | 'first-last-frame';
export type VideoResolution = '512P' | '768P' | '1080P';

export interface VideoRequest {
  kind: VideoKind;
  firstFrame: InputImage;
  /** Only for first-last-frame. */
  lastFrame?: InputImage;
  prompt: string;
  camera: CameraMove[];
  aspect: Aspect;
  durationSeconds: number;
  resolution: VideoResolution;
  promptOptimizer: boolean;
  /** Visible AIGC label on the video. */
  watermark: boolean;
}

export type VideoTaskState =
  | { state: 'queued' | 'processing'; progress?: TaskProgress }
  | {
      state: 'succeeded';
      /** The provider's file id, when it has one (MiniMax). */
      fileId?: string;
      /** The bytes, or a URL to fetch them from (valid for a while). */
      video: { data?: Buffer; url?: string; mimeType: string; width?: number; height?: number; durationSeconds?: number };
    }
  | { state: 'failed'; error: ProviderError };

export interface VideoGenerator {
  /**
   * Optional, for a provider that takes its caller's task id (ComfyUI's prompt_id): names the
   * task before it starts. The job saves the id first, so a cancel and the next process after a
   * crash know the task even when startVideo's answer never came.
   */
  planTask?(kind: VideoKind): { taskId: string; model: string };
  /**
   * Starts an asynchronous task (under `plannedTaskId` when planTask named it); its id is
   * persisted so a restarted server polls it again.
   */
  startVideo(request: VideoRequest, signal: AbortSignal, plannedTaskId?: string): Promise<{ taskId: string; model: string }>;
  pollVideo(taskId: string, signal: AbortSignal): Promise<VideoTaskState>;
  /** How long to wait between polls. */
  readonly pollIntervalMs: number;
  /**
   * Optional: stops the task at the provider when a person cancels it (or its run timed out), so
   * it stops using the provider's machine. Best effort; never called on a server shutdown, since
   * the next process resumes watching the task.
   */
  cancelVideo?(taskId: string, signal: AbortSignal): Promise<void>;
  /**
   * Optional: the durations (seconds) each kind and resolution allows, when the provider restricts
   * them, so a form can offer only those; a kind or resolution missing here is not offered. A
   * request outside them is refused with 'invalid_request'. Absent: no restriction is known.
   */
  readonly supportedDurations?: Partial<Record<VideoKind, Partial<Record<VideoResolution, readonly number[]>>>>;
}

export type { EnhanceStyle };

export interface EnhanceInput {
  type: 'text' | 'image' | 'mixed';
  text?: string;
  images: InputImage[];
  /** 0..1 */
  creativity: number;
  /** 0..1 */
  precision: number;
  style: EnhanceStyle;
  language: Language;
  signal: AbortSignal;
}

/** One change the text polish made: the text it replaced and what replaced it. */
export const textChangeSchema = z
  .object({
    rule: z.string().meta({ description: 'spelling, capitalisation, whitespace, punctuation-width, fabric-terms, …' }),
    from: z.string(),
    to: z.string(),
  })
  .meta({ id: 'TextChange' });
export type TextChange = z.output<typeof textChangeSchema>;


/** What a rule-based text polish did, to show beside its result (the built-in engine's). */
export const textChangeReportSchema = z
  .object({
    /** Whether the spelling was checked, and with which language's dictionary; or which language has none. */
    spelling: z.union([
      z.object({ checked: z.literal(true), dictionary: languageSchema }),
      z.object({ checked: z.literal(false), language: languageSchema }),
    ]),
    changes: z.array(textChangeSchema),
    unknown: z.array(z.string()).meta({ description: 'Words the dictionary does not know, left as written.' }),
  })
  .meta({ id: 'TextChangeReport' });
export type TextChangeReport = z.output<typeof textChangeReportSchema>;

export interface EnhanceResult {
  text?: string;
  /** Exactly what was changed in the text, when the enhancer can say (the built-in engine). */
  textChanges?: TextChangeReport;
  images: GeneratedImage[];
  /** 0..1: how sure the provider is that the result is an improvement (the local engine says how little it did). */
  confidence: number;
  model: string;
}

export interface Enhancer {
  /**
   * With onText, the improved text is handed over piece by piece as it is written (an adapter that
   * cannot stream hands it over whole, before it resolves); what was handed over is exactly the
   * result's text. onRestart: as for Analyser.analyse.
   */
  enhance(input: EnhanceInput, onText?: (chunk: string) => void, onRestart?: () => void): Promise<EnhanceResult>;
}

/** One candidate image to rank, under the id the product knows it by (generated_images.id). */
export interface RankedCandidateInput {
  imageId: number;
  image: InputImage;
}

export interface RankCandidatesInput {
  /** The fabric form fields the item has. */
  fabric: FabricInfo;
  /** The fabric's analysis prose, when its request has one. */
  analysisText?: string;
  patternImages: InputImage[];
  /** At most MAX_COLLECTION_CANDIDATES (shared/collections/collection-types.ts). */
  candidates: RankedCandidateInput[];
  /** The language of the reasons. */
  language: Language;
}

export interface CandidateRanking {
  /** Every candidate exactly once, best first, each with the model's short reason when it gave one. */
  ranking: { imageId: number; reason?: string }[];
  model: string;
}

/** Optional: a text model that sees images ranks a fabric's candidates against the fabric. */
export interface CandidateRanker {
  rankCandidates(input: RankCandidatesInput, signal: AbortSignal): Promise<CandidateRanking>;
}

/** What a provider found of its own setup (a self-hosted engine: node types and models it lacks). */
export interface ProviderSetupCheck {
  provider: string;
  /** False: the provider could not be asked (the problem says why). */
  reachable: boolean;
  /** In the provider's words, naming what is missing; empty when all is there. */
  problems: string[];
  checkedAt: string;
}

export interface ProviderCapabilities {
  analyser?: Analyser;
  imageGenerator?: ImageGenerator;
  promptWriter?: PromptWriter;
  videoGenerator?: VideoGenerator;
  enhancer?: Enhancer;
  candidateRanker?: CandidateRanker;
}

export type ProviderErrorKind =
  /** 429: try again after retryAfterMs. */
  | 'rate_limited'
  /** 5xx, overloaded, unreachable. */
  | 'unavailable'
  | 'timeout'
  /** Bad or missing key. */
  | 'auth'
  /** Balance or quota exhausted. */
  | 'quota'
  /** Blocked by the provider's safety system. */
  | 'safety'
  /** The provider refused the parameters. */
  | 'invalid_request'
  /** An answer we could not read (garbage, wrong schema, no image). */
  | 'bad_response'
  | 'cancelled';

export class ProviderError extends Error {
  override readonly name = 'ProviderError';

  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly options: { retryAfterMs?: number; provider?: string; status?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
  }

  /** Worth trying again later (the job runner backs off and honours retryAfterMs). */
  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable' || this.kind === 'timeout';
  }

  get retryAfterMs(): number | undefined {
    return this.options.retryAfterMs;
  }
}
