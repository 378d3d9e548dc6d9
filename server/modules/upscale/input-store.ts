// Upscale inputs in team mode: the image an API replica accepted, kept where a worker on any host
// reads it until its job ends: DATA_DIR/upscale-inputs/<ref> (a volume the hosts share) or
// <prefix>upscale-inputs/<ref> in the STORAGE_URL bucket. The job removes its input when it ends;
// a sweep removes the ones a crash left behind (old, and no unfinished job names them).
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { StorageConfig } from '../../config.js';
import { isMissing, openS3Bucket, type S3Bucket } from '../../storage/s3-bucket.js';
import { newResultId } from './result-store.js';

const REF = /^[A-Za-z0-9_-]{22}$/;

export interface InputStore {
  /** Stores the bytes under a new random name and answers it. */
  put(data: Buffer): Promise<string>;
  /** The bytes, or undefined when they are gone. */
  get(ref: string): Promise<Buffer | undefined>;
  remove(ref: string): Promise<void>;
  /** Names of inputs written before `beforeMs`. */
  listOlder(beforeMs: number): Promise<string[]>;
  close?(): void;
}

export function createInputStore(storage: StorageConfig, dataDir: string): InputStore {
  return storage.kind === 's3' ? new S3InputStore(openS3Bucket(storage)) : new DiskInputStore(dataDir);
}

export class DiskInputStore implements InputStore {
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'upscale-inputs');
  }

  async put(data: Buffer): Promise<string> {
    const ref = newResultId();
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    await writeFile(path.join(this.root, ref), data, { mode: 0o600 });
    return ref;
  }

  async get(ref: string): Promise<Buffer | undefined> {
    if (!REF.test(ref)) return undefined;
    return readFile(path.join(this.root, ref)).catch(() => undefined);
  }

  async remove(ref: string): Promise<void> {
    if (REF.test(ref)) await rm(path.join(this.root, ref), { force: true });
  }

  async listOlder(beforeMs: number): Promise<string[]> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    const old: string[] = [];
    for (const name of names) {
      if (!REF.test(name)) continue;
      const s = await stat(path.join(this.root, name)).catch(() => undefined);
      if (s && s.mtimeMs < beforeMs) old.push(name);
    }
    return old;
  }
}

export class S3InputStore implements InputStore {
  private readonly keyPrefix: string;

  constructor(private readonly s3: S3Bucket) {
    this.keyPrefix = `${s3.prefix}upscale-inputs/`;
  }

  async put(data: Buffer): Promise<string> {
    const ref = newResultId();
    await this.s3.client.send(
      new PutObjectCommand({ Bucket: this.s3.bucket, Key: this.keyPrefix + ref, Body: data, ContentLength: data.length }),
    );
    return ref;
  }

  async get(ref: string): Promise<Buffer | undefined> {
    if (!REF.test(ref)) return undefined;
    try {
      const answer = await this.s3.client.send(new GetObjectCommand({ Bucket: this.s3.bucket, Key: this.keyPrefix + ref }));
      if (!answer.Body) return undefined;
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async remove(ref: string): Promise<void> {
    if (!REF.test(ref)) return;
    await this.s3.client.send(new DeleteObjectCommand({ Bucket: this.s3.bucket, Key: this.keyPrefix + ref }));
  }

  async listOlder(beforeMs: number): Promise<string[]> {
    const old: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.s3.client.send(
        new ListObjectsV2Command({ Bucket: this.s3.bucket, Prefix: this.keyPrefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(this.keyPrefix.length);
        if (name && REF.test(name) && object.LastModified && object.LastModified.getTime() < beforeMs) old.push(name);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return old;
  }

  close(): void {
    this.s3.client.destroy();
  }
}
