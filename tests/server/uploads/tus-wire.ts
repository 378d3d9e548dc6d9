// The tus 1.0 protocol on the wire, for the upload suites: creation, offset, append and
// termination as plain HTTP against a listening server, and an append cut off part-way (the client
// hangs up mid-body, as a booth's network does).
import { createHash } from 'node:crypto';
import http from 'node:http';

export const TUS = { 'tus-resumable': '1.0.0' };

export interface Creation {
  length: number;
  filename?: string;
  filetype?: string;
  purpose?: string;
}

export function metadata(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${Buffer.from(v!).toString('base64')}`)
    .join(',');
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export class TusWire {
  constructor(
    readonly base: string,
    readonly endpoint: string,
  ) {}

  create(token: string | null, c: Creation, extra: Record<string, string> = {}): Promise<Response> {
    return fetch(this.base + this.endpoint, {
      method: 'POST',
      headers: {
        ...TUS,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'upload-length': String(c.length),
        'upload-metadata': metadata({ filename: c.filename, filetype: c.filetype, purpose: c.purpose }),
        'accept-language': 'en-US',
        ...extra,
      },
    });
  }

  /** Creates an upload and answers its URL (absolute). */
  async begin(token: string, c: Creation): Promise<string> {
    const r = await this.create(token, c);
    if (r.status !== 201) throw new Error(`creation answered ${r.status}: ${await r.text()}`);
    return new URL(r.headers.get('location')!, this.base + this.endpoint).href;
  }

  head(url: string, token: string): Promise<Response> {
    return fetch(url, { method: 'HEAD', headers: { ...TUS, authorization: `Bearer ${token}` } });
  }

  async offset(url: string, token: string): Promise<number> {
    const r = await this.head(url, token);
    if (r.status !== 200) throw new Error(`HEAD answered ${r.status}`);
    return Number(r.headers.get('upload-offset'));
  }

  patch(url: string, token: string, offset: number, data: Buffer): Promise<Response> {
    return fetch(url, {
      method: 'PATCH',
      headers: {
        ...TUS,
        authorization: `Bearer ${token}`,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'accept-language': 'en-US',
      },
      body: new Uint8Array(data),
    });
  }

  terminate(url: string, token: string): Promise<Response> {
    return fetch(url, { method: 'DELETE', headers: { ...TUS, authorization: `Bearer ${token}` } });
  }

  /** A PATCH declaring `length` bytes from `offset`, left open for the caller to write to (or stall). */
  openPatch(url: string, token: string, offset: number, length: number): http.ClientRequest {
    const target = new URL(url);
    return http.request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: 'PATCH',
      headers: {
        ...TUS,
        authorization: `Bearer ${token}`,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(length),
      },
    });
  }

  /**
   * A PATCH that declares all of `data` but sends only its first `sent` bytes, then hangs up.
   * Resolves once the socket is closed (the server may have stored any part of what was sent).
   */
  cutPatch(url: string, token: string, offset: number, data: Buffer, sent: number): Promise<void> {
    return new Promise((resolve) => {
      const req = this.openPatch(url, token, offset, data.length);
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.on('response', () => resolve());
      req.write(data.subarray(0, sent), () => {
        // Let the bytes reach the server before the line goes dead.
        setTimeout(() => req.destroy(), 150);
      });
    });
  }
}
