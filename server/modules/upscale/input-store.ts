// Upscale inputs in team mode, as a view of the blob store: the image an API replica accepted, kept
// under upscale-inputs/<ref> (on a volume the hosts share, or in the STORAGE_URL bucket) where a
// worker on any host reads it until its job ends. The job removes its input when it ends; a sweep
// removes the ones a crash left behind (old, and no unfinished job names them).
import type { BlobStore } from '../../storage/blob-store.js';
import { newResultId } from './result-store.js';

const KIND = 'upscale-inputs';
const REF = /^[A-Za-z0-9_-]{22}$/;

export interface InputStore {
  /** Stores the bytes under a new random name and answers it. */
  put(data: Buffer): Promise<string>;
  /** The bytes, or undefined when they are gone. */
  get(ref: string): Promise<Buffer | undefined>;
  remove(ref: string): Promise<void>;
  /** Names of inputs written before `beforeMs`. */
  listOlder(beforeMs: number): Promise<string[]>;
  /**
   * Removes inputs written before `beforeMs` but those `keep` names, and any a crash left half
   * written; answers how many it removed.
   */
  removeOlder(beforeMs: number, keep: (ref: string) => boolean): Promise<number>;
  /** Lets go of the blob store's connections. */
  close(): void;
}

/** A view of `blobs` (which it then owns and closes). */
export function createInputStore(blobs: BlobStore): InputStore {
  const keyOf = (ref: string) => `${KIND}/${ref}`;
  return {
    async put(data) {
      const ref = newResultId();
      await blobs.put(keyOf(ref), data);
      return ref;
    },
    async get(ref) {
      if (!REF.test(ref)) return undefined;
      return blobs.read(keyOf(ref));
    },
    async remove(ref) {
      if (REF.test(ref)) await blobs.remove(keyOf(ref));
    },
    async listOlder(beforeMs) {
      const old: string[] = [];
      for await (const blob of blobs.list(`${KIND}/`)) {
        const ref = blob.key.slice(KIND.length + 1);
        if (REF.test(ref) && blob.writtenAtMs < beforeMs) old.push(ref);
      }
      return old;
    },
    removeOlder(beforeMs, keep) {
      return blobs.removeOlder(`${KIND}/`, beforeMs, (key) => keep(key.slice(KIND.length + 1)));
    },
    close() {
      blobs.close();
    },
  };
}
