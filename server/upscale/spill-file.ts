// The feature cache's temporary file, which an engine keeps from one job to the next.
//
// Writing to new pages of a file is dear on a virtual machine: the 300 MB a 640x480 4x job spills
// took 0.1-1.2 s to write into a fresh file and 0.07 s into pages the file already had (ext4,
// Intel Xeon with AVX-512, 2 cores). So a job's cache writes from the file's start, over the pages
// the previous job left, and at its end the file is cut back to `keepBytes`: what is kept costs
// disk space (and reclaimable page cache), never the process's memory.

import { open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

import { ensureFeatureCacheDir, featureCacheDir, spillFileName } from './feature-cache-dir.js';

export class SpillFile {
  private file: FileHandle | undefined;
  private filePath: string | undefined;

  constructor(
    /** bytes of the file kept between jobs; 0 removes the file when a job is done with it */
    private readonly keepBytes: number,
    /** folder of the file; featureCacheDir() when not given */
    private readonly dir?: string,
  ) {}

  /** the file, once something has spilled */
  get path(): string | undefined {
    return this.filePath;
  }

  /** The open file, created at the first spill. */
  async handle(): Promise<FileHandle> {
    if (!this.file) {
      const dir = await ensureFeatureCacheDir(this.dir ?? featureCacheDir());
      const file = path.join(dir, spillFileName());
      // wx+: a fresh file of our own, never one that already exists under that name
      this.file = await open(file, 'wx+', 0o600);
      this.filePath = file;
    }
    return this.file;
  }

  /**
   * A job is done with the file: it is cut back to what is kept between jobs. Should that fail, the
   * file goes (the next job makes a new one) rather than failing a job whose result is made.
   */
  async jobDone(): Promise<void> {
    if (!this.file) return;
    if (this.keepBytes <= 0) return this.close();
    try {
      if ((await this.file.stat()).size > this.keepBytes) await this.file.truncate(this.keepBytes);
    } catch {
      await this.close();
    }
  }

  async close(): Promise<void> {
    const { file, filePath } = this;
    this.file = undefined;
    this.filePath = undefined;
    try {
      if (file) await file.close();
    } finally {
      if (filePath) await rm(filePath, { force: true });
    }
  }
}
