import { describe, expect, it } from 'vitest';
import { createObjectUrlCache, GRACE_MS, type UrlApi } from '../../../src/lib/media/object-url-cache';

/** URLs counted, time and the idle sweep driven by the test. */
function fakeApi() {
  let n = 0;
  const live = new Set<string>();
  const sweeps: ((mayContinue: () => boolean) => void)[] = [];
  const state = { now: 0, budget: Infinity };
  const api: UrlApi = {
    create: () => {
      const url = `blob:test/${++n}`;
      live.add(url);
      return url;
    },
    revoke: (url) => {
      if (!live.delete(url)) throw new Error(`revoked twice or unknown: ${url}`);
    },
    now: () => state.now,
    later: (sweep) => sweeps.push(sweep),
  };
  /** runs the sweeps scheduled so far, each allowed `budget` revokes */
  const idle = () => {
    for (const sweep of sweeps.splice(0)) {
      let left = state.budget;
      sweep(() => left-- > 0);
    }
  };
  return { api, live, state, idle, created: () => n };
}

/** A cache over fake URLs, and one Blob whose URL a view held and then let go. */
function releasedByOneView() {
  const f = fakeApi();
  const cache = createObjectUrlCache(f.api);
  const blob = new Blob(['a']);
  const url = cache.urlFor(blob);
  cache.hold(blob);
  cache.release(blob);
  return { f, cache, blob, url };
}

describe('shared object URLs', () => {
  it('gives every view of one Blob the same URL, made once', () => {
    const f = fakeApi();
    const cache = createObjectUrlCache(f.api);
    const blob = new Blob(['a']);
    const first = cache.urlFor(blob);
    cache.hold(blob);
    expect(cache.urlFor(blob)).toBe(first);
    cache.hold(blob);
    expect(f.created()).toBe(1);
  });

  it('keeps a URL while any view holds it, and through a hand-over from one view to the next', () => {
    // the pending row unmounts, the result card mounts in the same commit
    const { f, cache, blob, url } = releasedByOneView();
    expect(cache.urlFor(blob)).toBe(url);
    cache.hold(blob);
    f.state.now += GRACE_MS * 5;
    f.idle();
    expect(f.live.has(url)).toBe(true);
    expect(f.created()).toBe(1);
  });

  it('revokes a URL nobody holds once the grace has passed, not before', () => {
    const { f, cache, url } = releasedByOneView();
    f.state.now += GRACE_MS / 2;
    f.idle();
    expect(f.live.has(url)).toBe(true);
    f.state.now += GRACE_MS;
    f.idle();
    expect(f.live.has(url)).toBe(false);
    expect(cache.size()).toBe(0);
  });

  it('sweeps a URL made by a render that never committed', () => {
    const f = fakeApi();
    const cache = createObjectUrlCache(f.api);
    const url = cache.urlFor(new Blob(['a']));
    f.state.now += GRACE_MS + 1;
    f.idle();
    expect(f.live.has(url)).toBe(false);
  });

  it('revokes a few at a time when the idle slice runs out, and the rest in later slices', () => {
    const f = fakeApi();
    const cache = createObjectUrlCache(f.api);
    const blobs = Array.from({ length: 30 }, (_, i) => new Blob([String(i)]));
    for (const b of blobs) {
      cache.urlFor(b);
      cache.hold(b);
    }
    for (const b of blobs) cache.release(b);
    f.state.now += GRACE_MS + 1;
    f.state.budget = 8;
    f.idle();
    expect(f.live.size).toBe(22);
    f.idle();
    f.idle();
    f.idle();
    expect(f.live.size).toBe(0);
  });
});
