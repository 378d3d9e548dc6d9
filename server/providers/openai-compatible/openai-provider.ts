// The OpenAI-compatible adapter, through the official `openai` SDK with an overridable baseURL:
// OpenAI itself, or a LAN Ollama / vLLM / LM Studio box or any compatible gateway for the text
// side. Images only when an image model is configured.
import type { Analyser, CandidateRanker, Enhancer, ImageGenerator, PromptWriter } from '../capabilities.js';
import { DEFAULT_RETRY, type RetryPolicy } from '../shared/retry.js';
import { createOpenAiAnalyser } from './openai-analyser.js';
import { createOpenAiClient, type OpenAiContext } from './openai-context.js';
import { createOpenAiEnhancer } from './openai-enhancer.js';
import { createOpenAiImageGenerator } from './openai-images.js';
import { createOpenAiPromptWriter } from './openai-prompt-writer.js';
import { createOpenAiRanker } from './openai-ranker.js';

export interface OpenAiOptions {
  apiKey: string;
  /** Default: https://api.openai.com/v1. Ollama: http://<host>:11434/v1. */
  baseUrl?: string;
  textModel: string;
  imageModel?: string;
  timeoutMs?: number;
  /** 429/5xx retries inside the adapter (see shared/retry.ts). */
  retry?: RetryPolicy;
}

export interface OpenAiProvider {
  analyser: Analyser;
  promptWriter: PromptWriter;
  enhancer: Enhancer;
  candidateRanker: CandidateRanker;
  imageGenerator?: ImageGenerator;
}

const DEFAULT_TIMEOUT_MS = 240_000;

export function createOpenAiProvider(options: OpenAiOptions): OpenAiProvider {
  const context: OpenAiContext = {
    client: createOpenAiClient(options.apiKey, options.baseUrl, options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    textModel: options.textModel,
    ...(options.imageModel ? { imageModel: options.imageModel } : {}),
    retry: options.retry ?? DEFAULT_RETRY,
  };
  const imageModel = options.imageModel;
  return {
    analyser: createOpenAiAnalyser(context),
    promptWriter: createOpenAiPromptWriter(context),
    enhancer: createOpenAiEnhancer(context),
    candidateRanker: createOpenAiRanker(context),
    ...(imageModel ? { imageGenerator: createOpenAiImageGenerator({ ...context, imageModel }) } : {}),
  };
}
