// The S3-compatible bucket behind STORAGE_URL=s3://bucket[/prefix], shared by the file store and
// the upscale result store. Credentials come from the SDK's own chain (AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY, a profile, or an instance role); the endpoint, region and path style from
// S3_ENDPOINT, S3_REGION and S3_FORCE_PATH_STYLE.
import { S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { StorageConfig } from '../config.js';
import { storageFailure } from './storage-unavailable.js';

export interface S3Bucket {
  client: S3Client;
  bucket: string;
  /** '' or a key prefix ending in '/'. */
  prefix: string;
}

export function openS3Bucket(storage: Extract<StorageConfig, { kind: 's3' }>): S3Bucket {
  const client = new S3Client(s3ClientSettings(storage));
  nameStorageFailures(client);
  return { client, bucket: storage.bucket, prefix: storage.prefix };
}

/** The client settings every S3 client of ours uses, for a client another library makes. */
export function s3ClientSettings(storage: Extract<StorageConfig, { kind: 's3' }>) {
  return {
    region: storage.region,
    forcePathStyle: storage.forcePathStyle,
    ...(storage.endpoint ? { endpoint: storage.endpoint } : {}),
    // Checksums only where an operation needs one: MinIO, R2 and other S3-compatible services
    // refuse the CRC32 headers newer SDKs add to every upload by default.
    requestChecksumCalculation: 'WHEN_REQUIRED' as const,
    responseChecksumValidation: 'WHEN_REQUIRED' as const,
  };
}

/** Every call of every store on a bucket: an outage is named as the storage's (storage-unavailable.ts). */
export function nameStorageFailures(client: Pick<S3Client, 'middlewareStack'>): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        throw storageFailure(error);
      }
    },
    { step: 'initialize', name: 'loomStorageUnavailable' },
  );
}

/**
 * A missing object: GetObject answers 404 NoSuchKey; HeadObject answers a bare 404 (no body to
 * name the error, so the SDK calls it NotFound).
 */
export function isMissing(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound';
  }
  return false;
}

/** A GetObject body as a Node stream (it is one under Node; the SDK types it for every runtime). */
export function bodyStream(body: unknown): Readable {
  if (body instanceof Readable) return body;
  throw new Error('S3 object body is not a Node stream');
}

/**
 * Exactly bytes [start, end] of an object from a GetObject answer that may hold more: S3 sends the
 * requested range (206 with Content-Range), but a server that ignores a Range, or reads `bytes=0-0`
 * as the whole object (s3rver does), must not make a download longer than its Content-Length.
 */
export function exactRange(
  body: Readable,
  contentRange: string | undefined,
  range: { start: number; end: number },
  contentLength: number | undefined,
): Readable {
  const sent = contentRange ? /^bytes (\d+)-(\d+)\//.exec(contentRange) : null;
  const from = sent ? Number(sent[1]) : 0;
  const want = range.end - range.start + 1;
  if (from > range.start) {
    body.destroy();
    throw new Error(`S3 answered bytes from ${from} for a range from ${range.start}`);
  }
  if (from === range.start && contentLength === want) return body;
  let skip = range.start - from;
  let left = want;
  return Readable.from(
    (async function* () {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        let piece = chunk;
        if (skip > 0) {
          const dropped = Math.min(skip, piece.length);
          piece = piece.subarray(dropped);
          skip -= dropped;
        }
        if (piece.length === 0) continue;
        if (piece.length >= left) {
          yield piece.subarray(0, left);
          return; // leaving the loop destroys the rest of the answer
        }
        left -= piece.length;
        yield piece;
      }
    })(),
    { objectMode: false },
  );
}
