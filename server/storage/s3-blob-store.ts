// BlobStore in an S3-compatible bucket: <bucket prefix><key>. A PutObject is atomic (an object is
// either absent or whole, and reads after a successful write see it), so a staged write is held in
// memory, bytes already in hand, and published by its one PutObject. Listing (list, removeOlder)
// needs s3:ListBucket on the bucket.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { isBlobKey, type BlobStore, type ByteRange, type ListedBlob } from './blob-store.js';
import { bodyStream, exactRange, isMissing, type S3Bucket } from './s3-bucket.js';

export function createS3BlobStore(s3: S3Bucket): BlobStore {
  const objectKey = (key: string) => s3.prefix + key;

  const get = async (key: string, range?: ByteRange) => {
    try {
      return await s3.client.send(
        new GetObjectCommand({
          Bucket: s3.bucket,
          Key: objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  };

  const store: BlobStore = {
    locate: (kind) => `s3://${s3.bucket}/${s3.prefix}${kind}/`,

    async stage(key, data, contentType) {
      if (!isBlobKey(key)) throw new Error(`not a blob key: ${key}`);
      return {
        publish: async () => {
          await s3.client.send(
            new PutObjectCommand({
              Bucket: s3.bucket,
              Key: objectKey(key),
              Body: data,
              ContentLength: data.length,
              ...(contentType ? { ContentType: contentType } : {}),
            }),
          );
        },
        // Nothing was written before publish.
        discard: async () => undefined,
      };
    },

    async put(key, data, contentType) {
      await (await store.stage(key, data, contentType)).publish();
    },

    async size(key) {
      if (!isBlobKey(key)) return undefined;
      try {
        const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: objectKey(key) }));
        return head.ContentLength;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async read(key) {
      if (!isBlobKey(key)) return undefined;
      const answer = await get(key);
      if (!answer?.Body) return undefined;
      return Buffer.from(await answer.Body.transformToByteArray());
    },

    async open(key, range) {
      if (!isBlobKey(key)) return undefined;
      const answer = await get(key, range);
      if (!answer?.Body) return undefined;
      const body = bodyStream(answer.Body);
      return range ? exactRange(body, answer.ContentRange, range, answer.ContentLength) : body;
    },

    async remove(key) {
      if (!isBlobKey(key)) return;
      await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: objectKey(key) }));
    },

    async *list(prefix): AsyncGenerator<ListedBlob> {
      let token: string | undefined;
      do {
        const page = await s3.client.send(
          new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: objectKey(prefix), ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          if (!object.Key || !object.LastModified) continue;
          yield { key: object.Key.slice(s3.prefix.length), writtenAtMs: object.LastModified.getTime() };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    /** A bucket lifecycle rule may remove old objects too; this does it without one. */
    async removeOlder(prefix, beforeMs, keep) {
      let removed = 0;
      for await (const blob of store.list(prefix)) {
        if (blob.writtenAtMs >= beforeMs || keep?.(blob.key)) continue;
        await store.remove(blob.key);
        removed++;
      }
      return removed;
    },

    close() {
      s3.client.destroy();
    },
  };
  return store;
}
