// The multipart-upload calls s3rver 3.7 lacks and @tus/s3-store makes: ListParts, AbortMultipartUpload
// and ListMultipartUploads, answered from the folders where s3rver keeps an upload's parts
// (<bucket>/…uploads/<upload id>/<part number>, with <part number>.md5 beside each, and `key`).
// Tests only: a Koa middleware put before s3rver's own, for path-style requests.
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  type: string;
}

/** What is used of an s3rver instance (it is a Koa application with a filesystem store). */
export interface S3rverInternals {
  middleware: Array<(ctx: KoaContext, next: () => Promise<void>) => Promise<void>>;
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function addMultipartCalls(server: S3rverInternals): void {
  server.middleware.unshift(async (ctx, next) => {
    const [, bucket, ...rest] = decodeURIComponent(ctx.path).split('/');
    const key = rest.join('/');
    if (!bucket) return next();
    const uploads = server.store.getResourcePath(bucket, undefined, 'uploads');
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    const noSuchUpload = () => {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`;
    };
    if (key && uploadId && !/^[0-9a-f]+$/.test(uploadId)) return noSuchUpload();
    if (ctx.method === 'GET' && key && uploadId) {
      const dir = path.join(uploads, uploadId);
      const names = await readdir(dir).catch(() => undefined);
      if (!names) return noSuchUpload();
      const numbers = names
        .filter((n) => /^\d+$/.test(n))
        .map(Number)
        .sort((a, b) => a - b);
      const parts = await Promise.all(
        numbers.map(async (n) => {
          const [size, md5] = await Promise.all([
            stat(path.join(dir, String(n))).then((s) => s.size),
            readFile(path.join(dir, `${n}.md5`), 'utf8'),
          ]);
          return `<Part><PartNumber>${n}</PartNumber><ETag>"${md5.trim()}"</ETag><Size>${size}</Size></Part>`;
        }),
      );
      ctx.type = 'application/xml';
      ctx.body =
        `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><Bucket>${xml(bucket)}</Bucket><Key>${xml(key)}</Key>` +
        `<UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
      return;
    }
    if (ctx.method === 'DELETE' && key && uploadId) {
      const dir = path.join(uploads, uploadId);
      if (!(await stat(dir).catch(() => undefined))) return noSuchUpload();
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (ctx.method === 'GET' && !key && 'uploads' in ctx.query) {
      const ids = (await readdir(uploads).catch(() => [] as string[])).filter((n) => /^[0-9a-f]+$/.test(n));
      const entries = await Promise.all(
        ids.map(async (id) => {
          const dir = path.join(uploads, id);
          const [objectKey, s] = await Promise.all([readFile(path.join(dir, 'key'), 'utf8'), stat(dir)]);
          return `<Upload><Key>${xml(objectKey)}</Key><UploadId>${id}</UploadId><Initiated>${s.birthtime.toISOString()}</Initiated></Upload>`;
        }),
      );
      ctx.type = 'application/xml';
      ctx.body =
        `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult><Bucket>${xml(bucket)}</Bucket>` +
        `<IsTruncated>false</IsTruncated>${entries.join('')}</ListMultipartUploadsResult>`;
      return;
    }
    return next();
  });
}
