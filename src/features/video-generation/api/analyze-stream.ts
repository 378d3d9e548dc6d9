// POST /analyze-images-json-stream (image group, multipart) and its cancel. The request_id is made
// by the page and kept in the draft, so sending again joins the same work instead of starting over.
import { http, type StreamOutcome } from '../../../lib/api';
import { postEventStream } from '../../../lib/api/post-event-stream';
import type { ApiSchema } from '../../../lib/api/api-types';
import { uploadedFields, type FilePart } from '../../../lib/upload/resumable-files';
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

/** The analysis form; `uploaded` names the images already on the server (tus) in their place. */
export function analyzeForm(input: AnalyzeInput, uploaded: readonly [string, string][] | null = null): FormData {
  const form = new FormData();
  form.append('prompt', input.prompt);
  form.append('request_id', input.requestId);
  if (input.description.trim()) form.append('description', input.description.trim());
  form.append('language', input.language);
  form.append('fabric_info', JSON.stringify(input.fabricInfo));
  if (uploaded) {
    for (const [field, id] of uploaded) form.append(field, id);
    return form;
  }
  for (const part of imageParts(input)) form.append(part.field, part.blob, part.name);
  return form;
}

/** The model images, then the pattern images, as the form's file fields. */
function imageParts(input: AnalyzeInput): FilePart[] {
  return [
    ...input.modelImages.map((blob, i) => ({ field: 'model_images', blob, name: fileName(blob, `model-${i + 1}`) })),
    ...input.patternImages.map((blob, i) => ({ field: 'pattern_images', blob, name: fileName(blob, `pattern-${i + 1}`) })),
  ];
}

function fileName(blob: Blob, stem: string): string {
  if (blob instanceof File && blob.name) return blob.name;
  const ext = blob.type.split('/')[1] ?? 'png';
  return `${stem}.${ext}`;
}

/**
 * Where the server speaks tus the images go up first as resumable uploads (a cut resumes them on
 * the next attempt of the caller's retry policy), and the stream's form names them.
 */
export async function streamAnalysis(input: AnalyzeInput, onEvent: (e: AnalyzeEvent) => void, signal: AbortSignal): Promise<StreamOutcome> {
  const uploaded = await uploadedFields(imageParts(input), 'analysis', signal);
  return postEventStream<AnalyzeEvent>({
    path: '/analyze-images-json-stream',
    body: analyzeForm(input, uploaded),
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
