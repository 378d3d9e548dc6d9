// A local HTTP server that plays a provider's side of the wire in adapter tests: it records every
// request (method, path, query, headers, body) and answers with the route handlers a test sets,
// in the provider's own framing (JSON bodies, SSE lines).
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

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

  private constructor(private readonly server: Server) {}

  static async start(): Promise<ProviderTestServer> {
    const server = createServer();
    const instance = new ProviderTestServer(server);
    server.on('request', (req, res) => {
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
        instance.requests.push(recorded);
        const route = instance.routes.find(
          (r) => r.method === recorded.method && (typeof r.path === 'string' ? r.path === recorded.path : r.path.test(recorded.path)),
        );
        if (!route) {
          sendJson(res, 404, { error: `no test route for ${recorded.method} ${recorded.path}` });
          return;
        }
        route.times -= 1;
        if (route.times <= 0) instance.routes = instance.routes.filter((r) => r !== route);
        Promise.resolve(route.handler(recorded, res)).catch((error: unknown) => {
          if (!res.headersSent) sendJson(res, 500, { error: String(error) });
          else res.destroy();
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return instance;
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
