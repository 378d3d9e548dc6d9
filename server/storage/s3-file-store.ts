// FileStore in an S3-compatible bucket: <prefix>files/<first two hex digits>/<sha256>, with the same
// stored_files rows as on disk (the row answers info() without a request to the bucket). A
// PutObject is atomic, an object appears whole or not at all, so no temporary name is needed; the
// row comes after the object, so a row always names bytes any replica can read.
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { CONTENT_HASH, contentHash } from './content-hash.js';
import { readFileRow, recordFile, type FileDb } from './file-table.js';
import type { FileStore, StoredFile } from './file-store.js';
import { bodyStream, exactRange, isMissing, type S3Bucket } from './s3-bucket.js';

export function createS3FileStore(db: FileDb, s3: S3Bucket, now: () => Date): FileStore {
  const keyOf = (id: string) => `${s3.prefix}files/${id.slice(0, 2)}/${id}`;

  /** The object's size, or undefined when it is not there. */
  const sizeOf = async (key: string): Promise<number | undefined> => {
    try {
      const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
      return head.ContentLength;
    } catch (error) {
      // Without s3:ListBucket, S3 answers a missing key with 403: upload it then, and let
      // PutObject say whether writing is really forbidden.
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (isMissing(error) || status === 403) return undefined;
      throw error;
    }
  };

  const get = async (id: string, range?: { start: number; end: number }) => {
    try {
      return await s3.client.send(
        new GetObjectCommand({
          Bucket: s3.bucket,
          Key: keyOf(id),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  };

  return {
    async put(data, mimeType, dimensions) {
      const id = contentHash(data);
      const key = keyOf(id);
      // Content-addressed: the same bytes under the same key, so an object of the right size is them.
      if ((await sizeOf(key)) !== data.length) {
        await s3.client.send(
          new PutObjectCommand({
            Bucket: s3.bucket,
            Key: key,
            Body: data,
            ContentType: mimeType,
            ContentLength: data.length,
          }),
        );
      }
      const stored: StoredFile = {
        id,
        mimeType,
        size: data.length,
        width: dimensions?.width ?? null,
        height: dimensions?.height ?? null,
      };
      await recordFile(db, stored, now());
      return stored;
    },
    async info(id) {
      if (!CONTENT_HASH.test(id)) return undefined;
      return readFileRow(db, id);
    },
    async read(id) {
      if (!CONTENT_HASH.test(id)) return undefined;
      const answer = await get(id);
      if (!answer?.Body) return undefined;
      return Buffer.from(await answer.Body.transformToByteArray());
    },
    async open(id, range) {
      if (!CONTENT_HASH.test(id)) return undefined;
      const answer = await get(id, range);
      if (!answer?.Body) return undefined;
      const body = bodyStream(answer.Body);
      return range ? exactRange(body, answer.ContentRange, range, answer.ContentLength) : body;
    },
    close() {
      s3.client.destroy();
    },
  };
}
