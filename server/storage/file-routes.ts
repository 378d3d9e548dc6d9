// GET /files/:id/:name — a stored file behind a signed, expiring link (signed-links.ts). The
// signature is the check, so <img src> and <video src> work without a bearer header. Byte ranges
// are served because browsers seek and stream videos with them.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../http/app-error.js';
import type { SignedLinks } from './signed-links.js';
import type { FileStore } from './file-store.js';

export const FILE_ROUTE = '/files/:id/:name';

export function registerFileRoutes(
  app: FastifyInstance,
  o: { files: FileStore; links: SignedLinks; now: () => Date },
): void {
  app.get<{ Params: { id: string; name: string }; Querystring: { expires?: string; sig?: string } }>(
    FILE_ROUTE,
    { config: { openapi: { summary: 'A stored upload or result behind a signed link', tags: ['files'] } } },
    async (request, reply) => {
      const { id, name } = request.params;
      const { expires, sig } = request.query;
      if (!o.links.verify(id, name, expires, sig, o.now().getTime())) throw new AppError(403, 'forbidden');
      const info = await o.files.info(id);
      if (!info) throw new AppError(404, 'not_found');
      const range = parseRange(request.headers.range, info.size);
      if (range === 'unsatisfiable') {
        return reply.code(416).header('content-range', `bytes */${info.size}`).send();
      }
      const stream = await o.files.open(id, range);
      if (!stream) throw new AppError(404, 'not_found');
      // Content-addressed: the bytes behind an id never change, only the link expires.
      const maxAge = Math.max(0, Number(expires) - Math.floor(o.now().getTime() / 1000));
      void reply
        .header('content-type', info.mimeType)
        .header('cache-control', `private, max-age=${maxAge}, immutable`)
        .header('accept-ranges', 'bytes')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(name)}`);
      if (range) {
        void reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
          .header('content-length', String(range.end - range.start + 1));
      } else {
        void reply.header('content-length', String(info.size));
      }
      return reply.send(stream);
    },
  );
}

/** One `bytes=start-end` range (the only form browsers send for media); anything else is the whole file. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | undefined | 'unsatisfiable' {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    // bytes=-N: the last N bytes.
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
