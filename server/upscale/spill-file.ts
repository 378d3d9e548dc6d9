// The feature cache's temporary file, which an engine keeps from one job to the next.
//
// Writing to new pages of a file is dear on a virtual machine: the 300 MB a 640x480 4x job spills
// took 0.1-1.2 s to write into a fresh file and 0.07 s into pages the file already had (ext4,
// Intel Xeon with AVX-512, 2 cores). So a job's cache writes from the file's start, over the pages
// the previous job left, and at its end the file is cut back to `keepBytes`: what is kept costs
// disk space (and reclaimable page cache), never the process's memory.
//
// A file made with `direct` (the engine's for large jobs that stream their features, see
// engine.ts's `cached`) does direct I/O where the file system allows it: the bytes go
// between the disk and a small page-aligned buffer (aligned-staging.ts), never through the page
// cache. A large job's spill then costs the kernel almost nothing: a 2 MP 2x job first in its
// process spilled about 1 GB, for 2.3-3.4 s of kernel time through the page cache (fresh
// pages, 2-3.5 s a GiB on this virtual machine, whose freed memory the host takes back) and
// 0.06 s a GiB direct (AMD EPYC family 26, 2 cores, ext4). It also leaves other programs' cached
// pages where they are. Where direct I/O is refused (EINVAL: a file system without it), the file is
// written through the page cache as before.
//
// Direct reads go in chunks, all of a map's at once, each through a staging chunk of its own: a graph run
// holds the job's thread, so a chunk read after another one would wait for the run's end; at once,
// libuv's threads read a tile's maps while the run before it goes on. A map in a page-aligned array
// (aligned-pool.ts) needs no staging: it is written and read in place, all its chunks at once.

import { constants } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';

import { isPageAligned } from './aligned-pool.js';
import { AlignedStaging, STAGING_BYTES, alignUp } from './aligned-staging.js';
import { ensureFeatureCacheDir, featureCacheDir, spillFileName } from './feature-cache-dir.js';

/** a fresh file of our own (never one that already exists under that name), read and written */
const CREATE = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL;
/** bytes of one direct read */
const READ_CHUNK_BYTES = 4 * 1024 * 1024;
/** direct reads in flight at once, each with a chunk of the read staging: 64 MiB, a 2 MP 2x tile's maps several times */
const READ_SLOTS = 16;

export class SpillFile {
  private file: FileHandle | undefined;
  private filePath: string | undefined;
  /** whether the open file does direct I/O */
  private directIo = false;
  /**
   * Staged writes run one at a time in the order they were asked for, through a staging buffer of
   * their own. Reads, and writes of page-aligned maps from where they are, start at once (staged
   * reads up to READ_SLOTS direct chunks in flight, the rest waiting for a slot): transfers go on
   * while a graph run holds the job's thread. A read waits for the write of its slot of the file
   * (the feature cache's `get` does).
   */
  private writes: Promise<unknown> = Promise.resolve();
  /** transfers that start at once, which `settled` waits for beside the staged writes */
  private readonly unordered = new Set<Promise<unknown>>();
  private readonly writeStaging = new AlignedStaging();
  private readonly readStaging = new AlignedStaging(READ_CHUNK_BYTES * READ_SLOTS);
  private readonly readSlots = pLimit(READ_SLOTS);
  /** the read staging's chunks not in use, by index */
  private readonly freeReadChunks = Array.from({ length: READ_SLOTS }, (_, i) => i);
  /** handles left by a fall-back to the page cache, closed with the file (a transfer may still use one) */
  private replaced: FileHandle[] = [];
  private opening: Promise<FileHandle> | undefined;
  private reopening: Promise<void> | undefined;
  /** files of jobs done, still being removed (see `retire`) */
  private readonly removals = new Set<Promise<void>>();

  constructor(
    /** bytes of the file kept between jobs; 0 removes the file when a job is done with it */
    private readonly keepBytes: number,
    /** folder of the file; featureCacheDir() when not given */
    private readonly dir?: string,
    /** bypass the page cache where the file system allows it */
    private readonly direct = false,
  ) {}

  /** the file, once something has spilled */
  get path(): string | undefined {
    return this.filePath;
  }

  /** whether reads and writes bypass the page cache (known once the file is open) */
  get isDirect(): boolean {
    return this.directIo;
  }

  /** The bytes a slot of the file takes for an entry of `bytes`: whole pages under direct I/O. */
  slotBytes(bytes: number): number {
    return this.direct ? alignUp(bytes) : bytes;
  }

  /** The open file, created at the first spill (once, however many ask at the same time). */
  handle(): Promise<FileHandle> {
    if (this.file) return Promise.resolve(this.file);
    this.opening ??= this.create().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async create(): Promise<FileHandle> {
    const dir = await ensureFeatureCacheDir(this.dir ?? featureCacheDir());
    const file = path.join(dir, spillFileName());
    let handle: FileHandle | undefined;
    let direct = false;
    if (this.direct && constants.O_DIRECT) {
      try {
        handle = await open(file, CREATE | constants.O_DIRECT, 0o600);
        direct = true;
      } catch (e) {
        // Linux creates the file before it refuses O_DIRECT on a file system without it.
        if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e;
        await rm(file, { force: true });
      }
    }
    handle ??= await open(file, CREATE, 0o600);
    this.file = handle;
    this.filePath = file;
    this.directIo = direct;
    this.reopening = undefined;
    return handle;
  }

  /**
   * Writes `data` at `offset`, an offset of a slot from slotBytes' sizes, after the transfers asked
   * for before it; `data` must stay as it is until the returned promise settles.
   */
  write(data: Uint8Array, offset: number): Promise<void> {
    if (this.direct && isPageAligned(data)) return this.track(this.writeInPlace(data, offset));
    const result = this.writes.then(() => this.writeNow(data, offset));
    this.writes = result.catch(() => undefined);
    return result;
  }

  /**
   * A page-aligned map (aligned-pool.ts) is written from where it is, at once, beside the staged
   * writes: it needs no staging buffer and no turn of the job's thread between its chunks. Its slot
   * is not one a write still going on has (the feature cache frees a slot once its write is done).
   */
  private async writeInPlace(data: Uint8Array, offset: number): Promise<void> {
    const file = await this.handle();
    if (!this.directIo) {
      await file.write(data, 0, data.length, offset);
      return;
    }
    const pages = new Uint8Array(data.buffer, data.byteOffset, alignUp(data.length));
    try {
      await Promise.all(
        chunkStarts(pages.length).map((done) =>
          file.write(pages, done, Math.min(READ_CHUNK_BYTES, pages.length - done), offset + done),
        ),
      );
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e;
      await this.reopenBuffered();
      await this.writeInPlace(data, offset);
    }
  }

  /** Counts a transfer among those `settled` waits for. */
  private track<T>(transfer: Promise<T>): Promise<T> {
    const tracked = transfer.catch(() => undefined);
    this.unordered.add(tracked);
    void tracked.then(() => this.unordered.delete(tracked));
    return transfer;
  }

  /** Reads `into.length` bytes from `offset` into `into`. */
  read(into: Uint8Array, offset: number): Promise<void> {
    return this.track(this.readNow(into, offset));
  }

  /** Waits for every transfer asked for so far. */
  private async settled(): Promise<void> {
    await Promise.all([this.writes, ...this.unordered]);
  }

  private async writeNow(data: Uint8Array, offset: number): Promise<void> {
    const file = await this.handle();
    if (!this.directIo) {
      await file.write(data, 0, data.length, offset);
      return;
    }
    try {
      for (let done = 0; done < data.length; done += STAGING_BYTES) {
        const part = data.subarray(done, done + STAGING_BYTES);
        const staged = this.writeStaging.view(alignUp(part.length));
        staged.set(part);
        await file.write(staged, 0, staged.length, offset + done);
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e;
      await this.reopenBuffered();
      await this.writeNow(data, offset);
    }
  }

  private async readNow(into: Uint8Array, offset: number): Promise<void> {
    const file = await this.handle();
    if (!this.directIo) {
      await readFully(file, into, offset);
      return;
    }
    // every chunk settles before the map is answered, so none writes into `into` after that
    const chunks = await Promise.allSettled(
      isPageAligned(into)
        ? chunkStarts(into.length).map((done) => readInPlace(file, into, offset, done))
        : chunkStarts(into.length).map((done) => this.readSlots(() => this.readChunk(file, into, offset, done))),
    );
    const failed = chunks.find((c) => c.status === 'rejected');
    if (!failed) return;
    const e: unknown = failed.reason;
    if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e;
    await this.reopenBuffered();
    await this.readNow(into, offset);
  }

  /** One direct read of the map `into` at `offset`: its chunk from `done`, through a free chunk of the staging. */
  private async readChunk(file: FileHandle, into: Uint8Array, offset: number, done: number): Promise<void> {
    const want = Math.min(READ_CHUNK_BYTES, into.length - done);
    // readSlots lets at most READ_SLOTS chunks in here at once, so one is free
    const chunk = this.freeReadChunks.pop()!;
    try {
      const staged = this.readStaging.view(alignUp(want), chunk * READ_CHUNK_BYTES);
      await readFully(file, staged, offset + done, want);
      into.set(staged.subarray(0, want), done);
    } finally {
      this.freeReadChunks.push(chunk);
    }
  }

  /**
   * The file system took the file with O_DIRECT but refused a transfer (some accept the flag and
   * check alignment later): the same file goes on through the page cache, what it holds kept.
   */
  private reopenBuffered(): Promise<void> {
    // the other queue's transfer may have asked first: both wait for the one reopening
    this.reopening ??= (async () => {
      const handle = await open(this.filePath!, 'r+');
      if (this.file) this.replaced.push(this.file);
      this.file = handle;
      this.directIo = false;
    })();
    return this.reopening;
  }

  /**
   * A job is done with the file: it is cut back to what is kept between jobs. Should that fail, the
   * file goes (the next job makes a new one) rather than failing a job whose result is made. A file
   * kept for nothing goes behind the job (see `retire`).
   */
  async jobDone(): Promise<void> {
    await this.settled();
    if (!this.file) return;
    if (this.keepBytes <= 0) return this.retire();
    try {
      if ((await this.file.stat()).size > this.keepBytes) await this.file.truncate(this.keepBytes);
    } catch {
      this.retire();
    }
  }

  /**
   * The file is let go at once and removed behind the job, which the next job does not wait for:
   * it makes a new file. Removing a large job's file is slow: a 2 MP 2x job's 2 GB took 0.45 s, 2 %
   * of the job, during which nothing else of it ran. Behind the job, the same job took 20.39-20.67 s
   * against 20.39-21.01 s, 0.22 s less on average (4 pairs interleaved; Intel Xeon family 6 model
   * 167, AVX-512, 2 cores, ext4 mounted with discard). `close` waits for it.
   */
  private retire(): void {
    const removal = this.closeFile().catch(() => undefined); // a file left is removed at the next start
    this.removals.add(removal);
    void removal.then(() => this.removals.delete(removal));
  }

  /** Settles once every file let go behind a job (see `retire`) is removed. */
  async removed(): Promise<void> {
    await Promise.all(this.removals);
  }

  async close(): Promise<void> {
    await this.settled();
    await Promise.all([this.closeFile(), this.removed()]);
  }

  /** Closes the open file, the handles it replaced and removes it; the next spill makes a new one. */
  private async closeFile(): Promise<void> {
    const { file, filePath } = this;
    const replaced = this.replaced;
    this.file = undefined;
    this.filePath = undefined;
    this.replaced = [];
    try {
      for (const old of replaced) await old.close().catch(() => undefined);
      if (file) await file.close();
    } finally {
      if (filePath) await rm(filePath, { force: true });
    }
  }
}

/** The start of each READ_CHUNK_BYTES chunk of a transfer of `bytes`. */
function chunkStarts(bytes: number): number[] {
  const starts: number[] = [];
  for (let done = 0; done < bytes; done += READ_CHUNK_BYTES) starts.push(done);
  return starts;
}

/** One direct read of a page-aligned map's chunk from `done`, straight into the map's own pages. */
async function readInPlace(file: FileHandle, into: Uint8Array, offset: number, done: number): Promise<void> {
  const want = Math.min(READ_CHUNK_BYTES, into.length - done);
  const pages = new Uint8Array(into.buffer, into.byteOffset + done, alignUp(want));
  await readFully(file, pages, offset + done, want);
}

/**
 * Reads until `into` holds `need` bytes (all of it by default): a read may return fewer. Under
 * direct I/O `into` is whole pages, and past the file's end it comes back short, which is only an
 * error when it is short of `need`.
 */
async function readFully(file: FileHandle, into: Uint8Array, offset: number, need = into.length): Promise<void> {
  let got = 0;
  while (got < need) {
    const { bytesRead } = await file.read(into, got, into.length - got, offset + got);
    if (bytesRead === 0) throw new Error(`spill file: ${need - got} bytes missing at ${offset + got}`);
    got += bytesRead;
  }
}
