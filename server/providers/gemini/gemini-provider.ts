// The Gemini adapter: analysis, video prompts, the candidates' ranking and the workshop's text on
// the text model, candidate and workshop images on the image model ("Gemini-Banana"), all through
// the official @google/genai SDK. httpOptions.baseUrl is overridable (a gateway, or a test's local server).
import type { Analyser, CandidateRanker, Enhancer, ImageGenerator, PromptWriter } from '../capabilities.js';
import { createGeminiAnalyser } from './gemini-analyser.js';
import { createGeminiClient, type GeminiContext } from './gemini-context.js';
import { createGeminiEnhancer } from './gemini-enhancer.js';
import { createGeminiImageGenerator } from './gemini-image-generator.js';
import { createGeminiPromptWriter } from './gemini-prompt-writer.js';
import { createGeminiRanker } from './gemini-ranker.js';
import { DEFAULT_RETRY, type RetryPolicy } from './gemini-retry.js';

export interface GeminiOptions {
  apiKey: string;
  /** Default: the SDK's (https://generativelanguage.googleapis.com). */
  baseUrl?: string;
  textModel: string;
  imageModel: string;
  /** 429/503 retries inside the adapter (see gemini-retry.ts). */
  retry?: RetryPolicy;
  /** Limit for one request, streamed analysis included. */
  timeoutMs?: number;
}

export interface GeminiProvider {
  analyser: Analyser;
  imageGenerator: ImageGenerator;
  promptWriter: PromptWriter;
  enhancer: Enhancer;
  candidateRanker: CandidateRanker;
}

/** An analysis takes 2-3 minutes by the specification; one request gets a little more. */
const DEFAULT_TIMEOUT_MS = 240_000;

export function createGeminiProvider(options: GeminiOptions): GeminiProvider {
  const context: GeminiContext = {
    ai: createGeminiClient(options.apiKey, options.baseUrl, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    textModel: options.textModel,
    imageModel: options.imageModel,
    retry: options.retry ?? DEFAULT_RETRY,
  };
  return {
    analyser: createGeminiAnalyser(context),
    imageGenerator: createGeminiImageGenerator(context),
    promptWriter: createGeminiPromptWriter(context),
    enhancer: createGeminiEnhancer(context),
    candidateRanker: createGeminiRanker(context),
  };
}
