// The tus 1.0 endpoint (@tus/server) in the main group: POST <group>/uploads/ creates an upload,
// HEAD/PATCH/DELETE <group>/uploads/<id> ask its offset, append to it and end it. Every request
// carries the API's bearer token (the group's access guard); an upload is its creator's only.
// Fastify routes hand each request to the tus server as a web Request and send its Response back,
// so the group's hooks (security headers, CORS, request ids, logging) apply as to any route.
//
// What is checked, as early as the bytes allow: at creation the metadata (file name, MIME type,
// purpose), the length against UPLOAD_LIMIT_BYTES and the owner's bounds on unfinished uploads; on
// the PATCH that brings the first bytes, the type and the header's dimensions; on the last, the
// whole image as every group checks a form's file. A refused image is removed and answered 422.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@tus/server';
import { TUS_RESUMABLE, type Locker, type Upload } from '@tus/utils';
import { isDatabaseUnavailable, DATABASE_RETRY_AFTER_SECONDS } from '../../db/database-unavailable.js';
import { AppError } from '../../http/app-error.js';
import { currentUser } from '../../http/current-user.js';
import { localeFrom, message, type Locale, type MessageKey } from '../../http/messages.js';
import { discardRestOfBody } from '../../http/multipart-form.js';
import { isStorageUnavailable, STORAGE_RETRY_AFTER_SECONDS } from '../../storage/storage-unavailable.js';
import { isAcceptedImageType } from '../../../shared/images/image-types.js';
import type { UploadFinisher } from './upload-finish.js';
import { HEAD_BYTES, refuseHead } from './upload-image-check.js';
import {
  UPLOAD_PURPOSES,
  type PendingBounds,
  type UploadPurpose,
  type UploadRepository,
} from './upload-repository.js';
import { UPLOAD_ID, type UploadStore } from './upload-store.js';

export interface TusEndpointOptions {
  /** Where the group is mounted on this server, e.g. /api. */
  mountPrefix: string;
  /** The group's path as the PWA sees it (Location headers are relative to its host). */
  publicPrefix: string;
  repo: UploadRepository;
  store: UploadStore;
  finisher: UploadFinisher;
  /** Advisory locks in team mode; @tus/server's memory lock otherwise. */
  locker?: Locker;
  uploadLimitBytes: number;
  /** Largest image in pixels, by purpose. */
  maxPixels: (purpose: UploadPurpose) => number;
  bounds: PendingBounds;
  log: FastifyBaseLogger;
}

/** The headers a PWA on another origin reads, beyond those @tus/server exposes. */
const EXTRA_EXPOSED = ['Upload-Expires', 'Retry-After'];
const MAX_NAME_LENGTH = 255;

/** What one request brings to the tus hooks, which see only the web Request. */
interface Call {
  userId: number;
  locale: Locale;
  /** Set by a refusal that tells when to come back (the hooks cannot set headers). */
  retryAfterSeconds?: number;
}

/** A refusal as @tus/server sends it: a status and our envelope as the body. */
interface TusRefusal {
  status_code: number;
  body: string;
}

export function registerTusEndpoint(group: FastifyInstance, o: TusEndpointOptions): void {
  const calls = new WeakMap<Request, Call>();
  const mountPath = `${o.mountPrefix}/uploads`;
  const publicPath = `${o.publicPrefix}/uploads`;

  const refusal = (call: Call | undefined, error: AppError): TusRefusal => {
    if (call && error.options.retryAfterSeconds) call.retryAfterSeconds = error.options.retryAfterSeconds;
    return { status_code: error.status, body: envelope(call?.locale, error) };
  };

  const tus = new Server({
    path: mountPath,
    datastore: o.store.datastore,
    ...(o.locker ? { locker: o.locker } : {}),
    maxSize: o.uploadLimitBytes,
    // CORS is the server's (@fastify/cors and CORS_ORIGINS), never tus's own '*'.
    allowedOrigins: () => false,
    exposedHeaders: EXTRA_EXPOSED,
    namingFunction: () => o.store.storeId(randomId()),
    generateUrl: (_req, { id }) => `${publicPath}/${o.store.uploadId(id)}`,
    getFileIdFromRequest: (_req, last) => (last && UPLOAD_ID.test(last) ? o.store.storeId(last) : undefined),
    async onUploadCreate(req, upload) {
      const call = calls.get(req);
      if (!call) throw new Error('a tus request that did not come through the route');
      const checked = checkCreation(upload);
      if (checked instanceof AppError) throw refusal(call, checked);
      const reached = await o.repo.create(
        { id: o.store.uploadId(upload.id), userId: call.userId, ...checked, length: upload.size! },
        o.bounds,
      );
      if (reached) {
        const gb = Math.round((o.bounds.bytes / 1024 ** 3) * 10) / 10;
        throw refusal(
          call,
          new AppError(429, 'upload_bounds_reached', {
            vars: { count: o.bounds.count, gb },
            retryAfterSeconds: reached.retryAfterSeconds,
          }),
        );
      }
      return {};
    },
    async onUploadFinish(req, upload) {
      const call = calls.get(req);
      const id = o.store.uploadId(upload.id);
      const refused = await o.finisher.finish(id, {
        name: upload.metadata?.filename ?? id,
        purpose: upload.metadata?.purpose as UploadPurpose,
        ...(upload.size !== undefined ? { size: upload.size } : {}),
      });
      if (refused) throw refusal(call, refused);
      return {};
    },
    onResponseError(req, error) {
      const call = calls.get(req);
      if ('body' in error && typeof error.body === 'string' && error.body.startsWith('{')) return undefined;
      return refusal(call, tusError(error, o.uploadLimitBytes, o.log));
    },
  });

  // PATCH bodies stay unread until the tus server streams them to the store.
  group.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

  const handle = async (request: FastifyRequest<{ Params: { id?: string } }>, reply: FastifyReply) => {
    const user = currentUser(request);
    void reply.header('tus-resumable', TUS_RESUMABLE);
    const id = request.params.id;
    const row = id !== undefined ? (UPLOAD_ID.test(id) ? await o.repo.find(id) : undefined) : undefined;
    // Another user's upload is answered as no upload at all.
    if (id !== undefined && (!row || row.userId !== user.id)) throw new AppError(404, 'upload_not_found');
    const startOffset = request.method === 'POST' ? 0 : Number(request.headers['upload-offset']);
    const head =
      startOffset === 0 && (request.method === 'PATCH' || request.method === 'POST')
        ? new HeadCapture()
        : undefined;
    const web = toWebRequest(request, head);
    const call: Call = { userId: user.id, locale: localeFrom(request.headers['accept-language']) };
    calls.set(web, call);
    let response: Response;
    try {
      response = await tus.handleWeb(web);
    } finally {
      // A refusal before the body was read: the rest is dropped, so the connection stays usable.
      discardRestOfBody(request);
    }
    const uploadId = id ?? lastSegment(response.headers.get('location'));
    if (uploadId && (request.method === 'PATCH' || request.method === 'POST') && response.status < 300) {
      const offset = Number(response.headers.get('upload-offset') ?? 0);
      const length = row?.length ?? Number(request.headers['upload-length']);
      if (offset < length) {
        await o.repo.recordOffset(uploadId, offset);
        // The first bytes are in: the type, and the header's dimensions when they are in too.
        const early = head && head.bytes.length > 0 ? await checkHead(uploadId, head.bytes) : undefined;
        if (early) {
          await o.finisher.forget(uploadId);
          return sendTus(reply, new Response(envelope(call.locale, early), { status: early.status }), call);
        }
      }
    }
    if (request.method === 'DELETE' && id !== undefined && response.status === 204)
      await o.finisher.forget(id);
    return sendTus(reply, response, call);
  };

  const checkHead = async (uploadId: string, bytes: Buffer): Promise<AppError | undefined> => {
    const row = await o.repo.find(uploadId);
    if (!row) return undefined;
    return refuseHead(
      bytes,
      row.fileName,
      o.maxPixels(row.purpose as UploadPurpose),
      bytes.length >= row.length,
    );
  };

  const doc = (summary: string, status: number, description: string) => ({
    config: { openapi: { summary, tags: ['uploads'], response: { status, description } } },
  });
  group.post(
    '/uploads/',
    doc(
      'Create a resumable upload (tus 1.0 creation; /config.json names this URL as uploads.tus)',
      201,
      'Location: the upload URL, whose last segment is the id that the multipart calls accept as <field>_upload_id. ' +
        'Needs Tus-Resumable: 1.0.0, Upload-Length (at most UPLOAD_LIMIT_BYTES) and Upload-Metadata with filename, ' +
        'filetype (an image MIME type) and purpose (upscale, analysis, regenerate, workshop or collection: the images of a collection, checked as an analysis). Refusals: 400, 401, 413, 415, 429.',
    ),
    handle,
  );
  group.head('/uploads/:id', handle);
  group.patch(
    '/uploads/:id',
    doc(
      'Append to a resumable upload (tus 1.0; HEAD answers its Upload-Offset)',
      204,
      'Upload-Offset: the bytes the server has. 422 when the bytes are no image of an accepted type or shape (the upload is then removed).',
    ),
    handle,
  );
  group.delete(
    '/uploads/:id',
    doc('End a resumable upload (tus 1.0 termination)', 204, 'The upload and its bytes are removed.'),
    handle,
  );
}

/** The metadata's file name, type and purpose, or the refusal of a creation. */
function checkCreation(
  upload: Upload,
): { fileName: string; fileType: string; purpose: UploadPurpose } | AppError {
  if (upload.sizeIsDeferred)
    return new AppError(400, 'upload_field_required', { vars: { field: 'Upload-Length' } });
  const meta = upload.metadata ?? {};
  for (const field of ['filename', 'filetype', 'purpose'] as const) {
    if (!meta[field]) return new AppError(400, 'upload_field_required', { vars: { field } });
  }
  const fileName = meta.filename!;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (fileName.length > MAX_NAME_LENGTH || /[\u0000-\u001f\u007f/\\]/.test(fileName)) {
    return new AppError(400, 'upload_field_invalid', { vars: { field: 'filename' } });
  }
  const purpose = meta.purpose as UploadPurpose;
  if (!UPLOAD_PURPOSES.includes(purpose))
    return new AppError(400, 'upload_field_invalid', { vars: { field: 'purpose' } });
  // Every purpose takes images today (the workshop's items too); its own types would be chosen here.
  const fileType = meta.filetype!.toLowerCase();
  if (!isAcceptedImageType(fileType))
    return new AppError(415, 'upload_type_not_accepted', { vars: { type: fileType.slice(0, 100) } });
  return { fileName, fileType, purpose };
}

/** @tus/server's own refusals (plain text) and failures, as our envelope's keys. */
function tusError(
  error: Error | { status_code: number; body: string },
  uploadLimitBytes: number,
  log: FastifyBaseLogger,
): AppError {
  const status = 'status_code' in error ? error.status_code : undefined;
  const body = 'body' in error ? String(error.body) : '';
  if (status === undefined) {
    // Every lock connection of this replica is busy (team mode): a moment later one is free.
    if (error instanceof Error && /timeout exceeded when trying to connect/i.test(error.message))
      return new AppError(503, 'upload_busy', { retryAfterSeconds: 2 });
    if (isStorageUnavailable(error))
      return new AppError(503, 'storage_unavailable', { retryAfterSeconds: STORAGE_RETRY_AFTER_SECONDS });
    if (isDatabaseUnavailable(error))
      return new AppError(503, 'database_unavailable', { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS });
    log.error({ err: error }, 'upload request failed');
    return new AppError(500, 'internal_error');
  }
  const keys: Record<number, MessageKey> = {
    403: 'invalid_request',
    404: 'upload_not_found',
    409: 'upload_offset_conflict',
    410: 'upload_expired',
    413: 'upload_too_large',
    415: 'unsupported_media_type',
  };
  // Another request holds the upload (the package answers 400 to the request it stopped, 500 after its wait).
  if (/lock/i.test(body)) return new AppError(status, 'upload_busy');
  return new AppError(status, keys[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request'), {
    vars: { mb: Math.round(uploadLimitBytes / (1024 * 1024)) },
  });
}

function envelope(locale: Locale | undefined, error: AppError): string {
  const { vars, errors, data, retryAfterSeconds } = error.options;
  return JSON.stringify({
    success: false,
    code: error.status,
    message: message(error.key, locale ?? localeFrom(undefined), {
      seconds: retryAfterSeconds ?? 0,
      ...vars,
    }),
    data: errors ? { errors } : (data ?? null),
  });
}

/** The tus server's answer, through Fastify (its hooks' headers stay; CORS is the server's own). */
async function sendTus(reply: FastifyReply, response: Response, call: Call): Promise<FastifyReply> {
  void reply.status(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'access-control-allow-origin' && name !== 'content-length') void reply.header(name, value);
  });
  if (call.retryAfterSeconds) void reply.header('retry-after', String(call.retryAfterSeconds));
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (!body || body.length === 0) return reply.send();
  if (body[0] === 0x7b) void reply.type('application/json; charset=utf-8');
  else void reply.type('text/plain; charset=utf-8');
  return reply.send(body);
}

/** The first HEAD_BYTES of an upload as they pass through a request that starts at its first byte. */
class HeadCapture {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  take(chunk: Buffer): void {
    if (this.size >= HEAD_BYTES) return;
    const piece = chunk.subarray(0, HEAD_BYTES - this.size);
    this.chunks.push(Buffer.from(piece));
    this.size += piece.length;
  }

  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function toWebRequest(request: FastifyRequest, head: HeadCapture | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const raw = request.raw;
  const hasBody = request.method === 'PATCH' || request.method === 'POST';
  // A client that hangs up mid-body ends this stream early but cleanly, as @tus/server's own Node
  // entry does on a request's error: the store keeps what came (S3Store would drop its last, partial
  // part on a stream error) and the next HEAD answers that offset.
  const body = hasBody
    ? (Readable.toWeb(
        Readable.from(
          (async function* () {
            try {
              for await (const chunk of raw as AsyncIterable<Buffer>) {
                head?.take(chunk);
                yield chunk;
              }
            } catch {
              return;
            }
          })(),
        ),
      ) as ReadableStream<Uint8Array>)
    : null;
  return new Request(`http://localhost${raw.url ?? '/'}`, {
    method: request.method,
    headers,
    body,
    // Node's fetch types know the option; the DOM's do not.
    ...({ duplex: 'half' } as object),
  });
}

function lastSegment(location: string | null): string | undefined {
  const last = location?.split('/').pop();
  return last && UPLOAD_ID.test(last) ? last : undefined;
}

function randomId(): string {
  return randomBytes(16).toString('hex');
}
