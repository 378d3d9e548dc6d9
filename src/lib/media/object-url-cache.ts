// Object URLs shared by every view of the same Blob. Starting a batch hands 30 thumbnails from the
// pending list to the result grid: with one URL per component each was revoked and created again
// in the same commit (about 2 ms apiece on a tablet, all in one task). Here a URL lives while any
// view holds its Blob and is revoked a moment after the last one lets go, in idle time, a few at
// a time.

interface Entry {
  url: string;
  holders: number;
  /** when the last holder let go (or the URL was made): an <img> may still be loading it */
  idleSince: number;
}

export interface ObjectUrlCache {
  /** The Blob's URL, made on first use; hold it (from an effect) or it is swept. */
  urlFor(blob: Blob): string;
  hold(blob: Blob): void;
  release(blob: Blob): void;
  /** URLs alive now (for tests and diagnostics). */
  size(): number;
}

export interface UrlApi {
  create(blob: Blob): string;
  revoke(url: string): void;
  now(): number;
  /** Runs the sweep after GRACE_MS, when idle; the callback says whether it may go on. */
  later(sweep: (mayContinue: () => boolean) => void): void;
}

/** A URL nobody holds is kept this long: the next view of its Blob (or a render yet to commit) may want it. */
export const GRACE_MS = 1000;
/** Revokes take at most this long in one go (an idle period may offer up to 50 ms). */
const SLICE_MS = 8;

const browserApi: UrlApi = {
  create: (blob) => URL.createObjectURL(blob),
  revoke: (url) => URL.revokeObjectURL(url),
  now: () => performance.now(),
  later: (sweep) => {
    setTimeout(() => {
      const run = (idleLeft: () => number) => {
        const end = performance.now() + SLICE_MS;
        sweep(() => performance.now() < end && idleLeft() > 1);
      };
      if (typeof requestIdleCallback === 'function') {
        requestIdleCallback((deadline) => run(() => deadline.timeRemaining()), { timeout: 2000 });
      } else {
        run(() => SLICE_MS);
      }
    }, GRACE_MS);
  },
};

export function createObjectUrlCache(api: UrlApi = browserApi): ObjectUrlCache {
  const entries = new Map<Blob, Entry>();
  let sweepPending = false;

  const sweep = (mayContinue: () => boolean) => {
    sweepPending = false;
    const before = api.now() - GRACE_MS;
    let waiting = false;
    for (const [blob, entry] of entries) {
      if (entry.holders > 0) continue;
      if (entry.idleSince > before || !mayContinue()) {
        waiting = true;
        continue;
      }
      entries.delete(blob);
      api.revoke(entry.url);
    }
    if (waiting) schedule();
  };
  const schedule = () => {
    if (sweepPending) return;
    sweepPending = true;
    api.later(sweep);
  };

  return {
    urlFor(blob) {
      let entry = entries.get(blob);
      if (!entry) {
        entry = { url: api.create(blob), holders: 0, idleSince: api.now() };
        entries.set(blob, entry);
        // Made during a render that may never commit: swept unless an effect holds it.
        schedule();
      }
      return entry.url;
    },
    hold(blob) {
      const entry = entries.get(blob);
      if (entry) entry.holders += 1;
      else entries.set(blob, { url: api.create(blob), holders: 1, idleSince: 0 });
    },
    release(blob) {
      const entry = entries.get(blob);
      if (!entry) return;
      entry.holders = Math.max(0, entry.holders - 1);
      if (entry.holders > 0) return;
      entry.idleSince = api.now();
      schedule();
    },
    size: () => entries.size,
  };
}

export const objectUrls = createObjectUrlCache();
