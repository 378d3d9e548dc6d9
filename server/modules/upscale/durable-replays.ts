// Finished keyed upscales written to disk, so the answer to a request survives the server: when
// a crash or a restart comes between the engine's result and the reply reaching the tablet, the
// PWA's resend with the same Idempotency-Key is answered from this record after the restart
// instead of running the model a second time. One small JSON file per (user, key), written
// atomically, private to the server's user, removed when it expires or its owner cancels.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { UpscaleOutcome } from './upscale-service.js';

export interface ReplayRecord {
  /** The request's user, parameters and image (IdempotentResults.fingerprint): a key reused for other work does not match. */
  fingerprint: string;
  outcome: UpscaleOutcome;
  /** ms since the epoch. */
  expiresAt: number;
}

export class DurableReplays {
  /**
   * `published` says whether the record's result is there to hand out: a record is written just
   * before its result is published, so a crash in between leaves a record whose result never
   * appeared, which must not be replayed. By default every record counts as published.
   */
  constructor(
    readonly dir: string,
    private readonly now: () => Date,
    private readonly published: (outcome: UpscaleOutcome) => Promise<boolean> = async () => true,
  ) {}

  async get(owner: number, key: string): Promise<ReplayRecord | undefined> {
    const file = this.fileOf(owner, key);
    let record: ReplayRecord;
    try {
      record = JSON.parse(await readFile(file, 'utf8')) as ReplayRecord;
    } catch {
      return undefined; // none, or half-written by a crash before the rename (never renamed)
    }
    if (record.expiresAt <= this.now().getTime() || !(await this.published(record.outcome))) {
      await rm(file, { force: true });
      return undefined;
    }
    return record;
  }

  async put(owner: number, key: string, record: ReplayRecord): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileOf(owner, key);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(record), { mode: 0o600 });
    await rename(temporary, file);
  }

  /** Synchronous, so a cancel is on disk before the next request can read the record. */
  remove(owner: number, key: string): void {
    rmSync(this.fileOf(owner, key), { force: true });
  }

  /** Removes expired records and leftovers of interrupted writes; returns how many. */
  async sweep(): Promise<number> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.dir, name);
      if (name.endsWith('.tmp')) {
        await rm(file, { force: true });
        removed += 1;
        continue;
      }
      try {
        const record = JSON.parse(await readFile(file, 'utf8')) as ReplayRecord;
        if (record.expiresAt > this.now().getTime()) continue;
      } catch {
        // unreadable: not worth keeping
      }
      await rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }

  private fileOf(owner: number, key: string): string {
    const name = createHash('sha256').update(`${owner}\n${key}`).digest('base64url');
    return path.join(this.dir, `${name}.json`);
  }
}
