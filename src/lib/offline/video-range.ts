// Answers a player's byte-range request from a whole file (the service worker's kept videos): one
// range per request, as media elements ask (RFC 9110 §14). No Range header: the whole file, with
// Accept-Ranges so the player knows it may seek. A range past the end: 416.

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/** Parses `bytes=a-b`, `bytes=a-` or `bytes=-n` against a size; null when unsatisfiable or not one range. */
export function parseRange(header: string, size: number): ByteRange | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '') || size === 0) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return null;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return null;
  return { start, end };
}

export async function rangeResponse(rangeHeader: string | null, whole: Response): Promise<Response> {
  const blob = await whole.blob();
  const type = whole.headers.get('content-type') ?? 'application/octet-stream';
  const size = blob.size;
  if (!rangeHeader) {
    return new Response(blob, {
      status: 200,
      headers: { 'content-type': type, 'content-length': String(size), 'accept-ranges': 'bytes' },
    });
  }
  const range = parseRange(rangeHeader, size);
  if (!range) {
    return new Response(null, { status: 416, headers: { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes' } });
  }
  const part = blob.slice(range.start, range.end + 1);
  return new Response(part, {
    status: 206,
    headers: {
      'content-type': type,
      'content-length': String(part.size),
      'content-range': `bytes ${range.start}-${range.end}/${size}`,
      'accept-ranges': 'bytes',
    },
  });
}
