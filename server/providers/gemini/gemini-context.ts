// What every Gemini capability shares: one SDK client, the model names, the retry policy.
import { GoogleGenAI } from '@google/genai';
import type { RetryPolicy } from './gemini-retry.js';

export interface GeminiContext {
  ai: GoogleGenAI;
  textModel: string;
  imageModel: string;
  retry: RetryPolicy;
}

export function createGeminiClient(apiKey: string, baseUrl: string | undefined, timeoutMs: number): GoogleGenAI {
  return new GoogleGenAI({
    apiKey,
    // The Gemini API (AI Studio keys), never Vertex whatever the environment says.
    vertexai: false,
    // v1beta, where the REST documentation of every feature used here lives (responseSchema,
    // responseModalities, imageConfig); SDK 3.x would otherwise send v1.
    apiVersion: 'v1beta',
    // The SDK's own retries stay off: ours (gemini-retry.ts) know the RetryInfo delay.
    httpOptions: { ...(baseUrl ? { baseUrl } : {}), timeout: timeoutMs },
  });
}
