// Helpers of the workshop browser tests: a small server speaking Gemini's generateContent and
// streamGenerateContent (?alt=sse) wire formats (answers scripted per request: a safety block, a
// slow answer, a good one, one written piece by piece at a pace, one cut mid-text), and the
// third-group calls made straight from Node for setup and measurements.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const GEMINI_TEXT_MODEL = 'gemini-text-test';
export const GEMINI_IMAGE_MODEL = 'gemini-image-test';
export const ENHANCED = { text: 'Rose voile: a featherlight cotton with a crimson floral, made for summer.', confidence: 0.82 };

/**
 * delayMs: the answer waits that long. paceMs: a streamed answer's pieces come that far apart.
 * cutAfter: a streamed answer ends after that many pieces, without a finishReason (a cut).
 */
export type GeminiAnswer = 'ok' | 'safety' | 'quota' | { delayMs?: number; paceMs?: number; cutAfter?: number };

export interface FakeGemini {
  url: string;
  /** Answers for the next text requests, in order; after them every request is answered 'ok'. */
  script: GeminiAnswer[];
  requests: number;
  close(): Promise<void>;
}

/** One GenerateContentResponse carrying the JSON the enhancer asks for. */
function textAnswer() {
  return {
    candidates: [{ content: { role: 'model', parts: [{ text: JSON.stringify(ENHANCED) }] }, index: 0, finishReason: 'STOP' }],
    modelVersion: `${GEMINI_TEXT_MODEL}-001`,
  };
}

/** The prompt refused by Gemini's safety filter (HTTP 200 with promptFeedback.blockReason). */
function safetyAnswer() {
  return { promptFeedback: { blockReason: 'SAFETY', blockReasonMessage: 'The prompt was blocked' }, modelVersion: `${GEMINI_TEXT_MODEL}-001` };
}

/** A daily quota used up: HTTP 429 RESOURCE_EXHAUSTED with a per-day QuotaFailure (not worth waiting for). */
function quotaAnswer() {
  return {
    error: {
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      message: 'Quota exceeded for quota metric generate_content_requests per day',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier', quotaMetric: 'generate_content_requests' }],
        },
      ],
    },
  };
}

/** Pieces of the answer's JSON as the stream sends them (small, so the text visibly grows). */
export const STREAM_PIECE_CHARS = 6;

/** A streamGenerateContent answer: `data: <GenerateContentResponse>` events, the last with finishReason. */
async function streamAnswer(res: http.ServerResponse, answer: Exclude<GeminiAnswer, 'quota'>): Promise<void> {
  const options = typeof answer === 'object' ? answer : {};
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  if (options.delayMs) await wait(options.delayMs);
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const event = (body: unknown) => !res.destroyed && res.write(`data: ${JSON.stringify(body)}\r\n\r\n`);
  if (answer === 'safety') {
    event(safetyAnswer());
    return void res.end();
  }
  const json = JSON.stringify(ENHANCED);
  const pieces: string[] = [];
  for (let i = 0; i < json.length; i += STREAM_PIECE_CHARS) pieces.push(json.slice(i, i + STREAM_PIECE_CHARS));
  for (const [index, text] of pieces.entries()) {
    if (options.cutAfter !== undefined && index >= options.cutAfter) return void res.end();
    event({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }], modelVersion: `${GEMINI_TEXT_MODEL}-001` });
    if (options.paceMs) await wait(options.paceMs);
  }
  event({ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, index: 0, finishReason: 'STOP' }], modelVersion: `${GEMINI_TEXT_MODEL}-001` });
  res.end();
}

export async function startFakeGemini(): Promise<FakeGemini> {
  const sockets = new Set<Socket>();
  const state = { script: [] as GeminiAnswer[], requests: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.requests += 1;
      const streamed = (req.url ?? '').includes(':streamGenerateContent');
      if (!(req.url ?? '').includes(':generateContent') && !streamed) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 404, status: 'NOT_FOUND', message: 'no such model' } }));
        return;
      }
      const answer = state.script.shift() ?? 'ok';
      const send = (body: unknown, status = 200) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(body));
      };
      if (answer === 'quota') return send(quotaAnswer(), 429);
      if (streamed) return void streamAnswer(res, answer);
      if (answer === 'safety') send(safetyAnswer());
      else if (answer === 'ok') send(textAnswer());
      else setTimeout(() => send(textAnswer()), answer.delayMs ?? 0);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get script() {
      return state.script;
    },
    set script(value: GeminiAnswer[]) {
      state.script = value;
    },
    get requests() {
      return state.requests;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface ThirdItem {
  id: number;
  status: string;
  result: { text: string | null; images: unknown[]; confidence: number | null; model: string | null; processing_ms: number | null } | null;
  error: { code: string; message: string } | null;
}

/** A third-group call from Node with the version header. */
export async function thirdCall(baseUrl: string, method: string, path: string, token: string, body?: FormData) {
  const res = await fetch(`${baseUrl}/third-api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-api-version': 'v1', 'accept-language': 'en-US' },
    body,
  });
  const json = (await res.json()) as { success: boolean; data: unknown; message: string };
  return { status: res.status, ...json };
}
