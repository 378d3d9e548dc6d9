// The companion server's calls as the benchmarks make them: an enveloped JSON call, and one
// analyse request followed to its end through its event stream, timed.
import { readEventStream } from './read-event-stream.js';

/** An analysis still running after this long is given up (reported as timed out). */
const ANALYSIS_TIMEOUT_MS = Number(process.env.BENCH_ANALYSIS_TIMEOUT_S ?? 600) * 1000;

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

export async function call<T>(url: string, method: string, token: string | undefined, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: {
      'content-type': 'application/json',
      'accept-language': 'en-US',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Envelope<T>;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${json.message}`);
  return json.data;
}

export interface AnalysisTiming {
  /** The stream's first event (the server says it is connecting, before any job runs). */
  connectedMs: number;
  /** The first event from the analysis job (the engine has taken it). */
  firstJobEventMs: number;
  totalMs: number;
  outcome: string;
  images: { id: number; status: string }[];
}

export async function analyse(
  url: string,
  token: string,
  requestId: string,
  images: { model: Buffer; pattern: Buffer },
): Promise<AnalysisTiming> {
  const form = new FormData();
  form.set('prompt', 'A summer dress in the striped fabric');
  form.set('request_id', requestId);
  form.set('fabric_name', 'Striped cotton');
  form.set('model_images', new Blob([new Uint8Array(images.model)], { type: 'image/png' }), 'model.png');
  form.set(
    'pattern_images',
    new Blob([new Uint8Array(images.pattern)], { type: 'image/png' }),
    'pattern.png',
  );
  const started = performance.now();
  const res = await fetch(`${url}/image-api/analyze-images-json-stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
    body: form,
    signal: AbortSignal.timeout(ANALYSIS_TIMEOUT_MS),
  });
  if (!res.ok || !res.body) throw new Error(`analysis: ${res.status} ${await res.text()}`);
  const timing: AnalysisTiming = {
    connectedMs: NaN,
    firstJobEventMs: NaN,
    totalMs: NaN,
    outcome: 'unfinished',
    images: [],
  };
  try {
    await readEventStream(res, (data, arrivedAt) => {
      const event = data as {
        type: string;
        progress?: number;
        data?: { images?: { id: number; status: string }[] };
      };
      const at = arrivedAt - performance.timeOrigin - started;
      if (Number.isNaN(timing.connectedMs)) timing.connectedMs = at;
      const fromJob =
        event.type === 'streaming' ||
        event.type === 'complete' ||
        event.type === 'error' ||
        (event.progress ?? 0) > 2;
      if (fromJob && Number.isNaN(timing.firstJobEventMs)) timing.firstJobEventMs = at;
      if (event.type === 'complete' || event.type === 'error') {
        timing.totalMs = at;
        timing.outcome = event.type;
        timing.images = event.data?.images ?? [];
      }
    });
  } catch (error) {
    if (!(error instanceof Error && error.name === 'TimeoutError')) throw error;
    timing.outcome = `timed out after ${ANALYSIS_TIMEOUT_MS / 1000} s`;
    timing.totalMs = ANALYSIS_TIMEOUT_MS;
  }
  return timing;
}

