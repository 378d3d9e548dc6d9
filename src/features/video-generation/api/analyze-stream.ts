// POST /analyze-images-json-stream (image group, multipart) and its cancel. The request_id is made
// by the page and kept in the draft, so sending again joins the same work instead of starting over.
import { http, type StreamOutcome } from '../../../lib/api';
import { postEventStream } from '../../../lib/api/post-event-stream';
import type { ApiSchema } from '../../../lib/api/api-types';
import type { ImageRequestView } from '../model/generation-types';

/** The stream's events as the server's schema says (generated API types); streaming_reset: a new attempt drops the text shown. */
export type AnalyzeEvent = ApiSchema<'AnalyzeEvent'>;

export interface AnalyzeInput {
  requestId: string;
  prompt: string;
  description: string;
  language: string;
  fabricInfo: Record<string, string>;
  modelImages: Blob[];
  patternImages: Blob[];
}

export function analyzeForm(input: AnalyzeInput): FormData {
  const form = new FormData();
  form.append('prompt', input.prompt);
  form.append('request_id', input.requestId);
  if (input.description.trim()) form.append('description', input.description.trim());
  form.append('language', input.language);
  form.append('fabric_info', JSON.stringify(input.fabricInfo));
  input.modelImages.forEach((b, i) => form.append('model_images', b, fileName(b, `model-${i + 1}`)));
  input.patternImages.forEach((b, i) => form.append('pattern_images', b, fileName(b, `pattern-${i + 1}`)));
  return form;
}

function fileName(blob: Blob, stem: string): string {
  if (blob instanceof File && blob.name) return blob.name;
  const ext = blob.type.split('/')[1] ?? 'png';
  return `${stem}.${ext}`;
}

export function streamAnalysis(input: AnalyzeInput, onEvent: (e: AnalyzeEvent) => void, signal: AbortSignal): Promise<StreamOutcome> {
  return postEventStream<AnalyzeEvent>({
    path: '/analyze-images-json-stream',
    body: analyzeForm(input),
    onEvent,
    isFinal: (e) => e.type === 'complete' || e.type === 'error',
    signal,
  });
}

export function cancelAnalysis(requestId: string): Promise<unknown> {
  return http.post('image', `/analyze-requests/${encodeURIComponent(requestId)}/cancel`, {});
}

/** POST /user/image-requests: the user's requests with their images (recovery after a cut stream). */
export function fetchImageRequests(requestIds: string[], signal?: AbortSignal): Promise<ImageRequestView[]> {
  return http.post<ImageRequestView[]>('main', '/user/image-requests', { request_ids: requestIds }, { signal });
}
