// Upscale results in the STORAGE_URL bucket: <prefix>upscale-results/<id>/<filename>, so a result
// one process wrote is served (signed link, byte ranges) by any other.
//
// The order the disk store keeps (the replay record is stored before the result is published)
// holds here without a staging copy: a PutObject is atomic, an object is either absent or whole,
// and S3 reads after a successful write see it. So a result is staged in memory (the engine's
// bytes, already held) and published by its one PutObject. A crash before it leaves a replay
// record whose result never appeared: has() answers false and the record is not replayed, as on
// disk. A crash after it leaves both. Listing (has, sweep) needs s3:ListBucket on the bucket.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { bodyStream, exactRange, isMissing, type S3Bucket } from '../../storage/s3-bucket.js';
import { isResultName, newResultId, type ResultStore, type StagedResult, type StoredResult } from './result-store.js';

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

export class S3ResultStore implements ResultStore {
  readonly root: string;
  private readonly keyPrefix: string;

  constructor(private readonly s3: S3Bucket) {
    this.keyPrefix = `${s3.prefix}upscale-results/`;
    this.root = `s3://${s3.bucket}/${this.keyPrefix}`;
  }

  async stage(filename: string, data: Buffer): Promise<StagedResult> {
    const id = newResultId();
    return {
      id,
      filename,
      size: data.length,
      publish: async () => {
        await this.s3.client.send(
          new PutObjectCommand({
            Bucket: this.s3.bucket,
            Key: this.keyOf(id, filename),
            Body: data,
            ContentLength: data.length,
            ContentType: CONTENT_TYPES[filename.slice(filename.lastIndexOf('.') + 1)] ?? 'application/octet-stream',
          }),
        );
      },
      // Nothing was written before publish.
      discard: async () => undefined,
    };
  }

  async save(filename: string, data: Buffer): Promise<StoredResult> {
    const staged = await this.stage(filename, data);
    await staged.publish();
    return { id: staged.id, filename, size: staged.size };
  }

  async has(id: string): Promise<boolean> {
    if (!isResultName(id, 'x')) return false;
    const listed = await this.s3.client.send(
      new ListObjectsV2Command({ Bucket: this.s3.bucket, Prefix: `${this.keyPrefix}${id}/`, MaxKeys: 1 }),
    );
    return (listed.Contents?.length ?? 0) > 0;
  }

  async size(id: string, filename: string): Promise<number | undefined> {
    if (!isResultName(id, filename)) return undefined;
    try {
      const head = await this.s3.client.send(
        new HeadObjectCommand({ Bucket: this.s3.bucket, Key: this.keyOf(id, filename) }),
      );
      return head.ContentLength;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async open(id: string, filename: string, range?: { start: number; end: number }): Promise<Readable | undefined> {
    if (!isResultName(id, filename)) return undefined;
    try {
      const answer = await this.s3.client.send(
        new GetObjectCommand({
          Bucket: this.s3.bucket,
          Key: this.keyOf(id, filename),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      if (!answer.Body) return undefined;
      const body = bodyStream(answer.Body);
      return range ? exactRange(body, answer.ContentRange, range, answer.ContentLength) : body;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** Deletes result objects older than the link's lifetime (a bucket lifecycle rule may do it too). */
  async sweep(ttlSeconds: number, nowMs: number): Promise<number> {
    const before = nowMs - ttlSeconds * 1000;
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.s3.client.send(
        new ListObjectsV2Command({ Bucket: this.s3.bucket, Prefix: this.keyPrefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key || !object.LastModified || object.LastModified.getTime() > before) continue;
        await this.s3.client.send(new DeleteObjectCommand({ Bucket: this.s3.bucket, Key: object.Key }));
        removed += 1;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }

  close(): void {
    this.s3.client.destroy();
  }

  private keyOf(id: string, filename: string): string {
    return `${this.keyPrefix}${id}/${filename}`;
  }
}
