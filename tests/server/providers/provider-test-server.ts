// A local HTTP server that plays a provider's side of the wire in adapter tests: it records every
// request (method, path, query, headers, body) and answers with the route handlers a test sets,
// in the provider's own framing (JSON bodies, SSE lines).
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

interface Route {
  method: string;
  path: string | RegExp;
  handler: Handler;
  /** Answers this many requests, then steps aside for the next matching route. */
  times: number;
}

export class ProviderTestServer {
  readonly requests: RecordedRequest[] = [];
  private routes: Route[] = [];

  private readonly server: Server = createServer();

  constructor() {
    this.server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const body = Buffer.concat(chunks);
        let json: unknown;
        try {
          json = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
        } catch {
          json = undefined;
        }
        const recorded: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, json };
        this.requests.push(recorded);
        const route = this.routes.find(
          (r) => r.method === recorded.method && (typeof r.path === 'string' ? r.path === recorded.path : r.path.test(recorded.path)),
        );
        if (!route) {
          sendJson(res, 404, { error: `no test route for ${recorded.method} ${recorded.path}` });
          return;
        }
        route.times -= 1;
        if (route.times <= 0) this.routes = this.routes.filter((r) => r !== route);
        Promise.resolve(route.handler(recorded, res)).catch((error: unknown) => {
          if (!res.headersSent) sendJson(res, 500, { error: String(error) });
          else res.destroy();
        });
      });
    });
  }

  static async start(): Promise<ProviderTestServer> {
    const instance = new ProviderTestServer();
    await instance.listen();
    return instance;
  }

  /** Listens on a free port of 127.0.0.1. */
  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Adds a route; `times` limits how many requests it answers (default: all). */
  on(method: string, path: string | RegExp, handler: Handler, times = Number.POSITIVE_INFINITY): this {
    this.routes.push({ method, path, handler, times });
    return this;
  }

  reset(): void {
    this.routes = [];
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The server of a test file: listening before its tests, emptied of routes and requests before
 * each, closed after them all.
 */
export function useProviderTestServer(): ProviderTestServer {
  const server = new ProviderTestServer();
  beforeAll(() => server.listen());
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  return server;
}

/** The address of a server that was listening and is gone (an unreachable provider). */
export async function unreachableUrl(): Promise<string> {
  const gone = await ProviderTestServer.start();
  const url = gone.url;
  await gone.close();
  return url;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string, contentType = 'text/html'): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(text);
}

/** Starts an SSE answer; write events with `writeSse`. */
export function openSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
}

/** One `data:` event, with the given line ending (Gemini sends \r\n\r\n, OpenAI \n\n). */
export function writeSse(res: ServerResponse, data: unknown, ending = '\n\n'): void {
  res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}${ending}`);
}

/** An answer that is one whole SSE stream: each of `events` as a `data:` event (see writeSse), then the end. */
export function sseAnswer(events: readonly unknown[], ending = '\n\n'): Handler {
  return (_request, res) => {
    openSse(res);
    for (const event of events) writeSse(res, event, ending);
    res.end();
  };
}

/**
 * What a reader of streamed text holds, as the app's views do: each chunk is shown; told to
 * restart (the answer is asked for again), it drops what it showed. `longest` is the most it held
 * at once: a text shown twice would be longer than the answer.
 */
export function textReader() {
  const reader = {
    shown: '',
    longest: '',
    restarts: 0,
    /** Every chunk's length added up, dropped ones too. */
    streamedInAll: 0,
    show: (chunk: string): void => {
      reader.streamedInAll += chunk.length;
      reader.shown += chunk;
      if (reader.shown.length > reader.longest.length) reader.longest = reader.shown;
    },
    restart: (): void => {
      reader.restarts += 1;
      reader.shown = '';
    },
  };
  return reader;
}

/** The same for streamed video prompts: each option's draft, written at its offset. */
export function draftsReader() {
  const reader = {
    drafts: [] as string[],
    restarts: 0,
    show: (piece: { index: number; offset: number; content: string }): void => {
      reader.drafts[piece.index] = (reader.drafts[piece.index] ?? '').slice(0, piece.offset) + piece.content;
    },
    restart: (): void => {
      reader.restarts += 1;
      reader.drafts = [];
    },
  };
  return reader;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A real PNG of the given size and colour. */
export function pngImage(width: number, height: number, color = '#c0392b'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();
}

export function gifImage(width: number, height: number, color = '#2980b9'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).gif().toBuffer();
}

/** Splits a string into pieces of at most `size` characters. */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
