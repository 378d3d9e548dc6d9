// Expiring download links: an HMAC over id, name and expiry, so <img src>, <video src> and plain
// downloads work without a bearer header while nobody can guess or extend a link. Every kind of
// link has its own key, derived from the server secret (shared by every host that verifies access
// tokens) with the kind's label, so a link of one kind cannot be turned into another. Links to
// stored files are only made by calls that have checked the file belongs to the signed-in user.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The kinds of link, each with its key label, its path segment and the step its expiry is rounded up to. */
const LINK_KINDS = {
  /** An upscaled image: `<prefix>/results/<id>/<file>`, valid to the second of its result's lifetime. */
  upscaleResult: { label: 'loom-upscale-result-url-v1', segment: 'results', expiryStepSeconds: 1 },
  /**
   * A stored upload or generation result: `<prefix>/files/<id>/<name>`. Rounded up to the hour, so the
   * same file keeps the same link for a while and caches hold it.
   */
  storedFile: { label: 'loom-generation-file-url-v1', segment: 'files', expiryStepSeconds: 3600 },
} as const;

export type LinkKind = keyof typeof LINK_KINDS;

export interface SignedLinks {
  /** `<prefix>/<segment>/<id>/<name>?expires=…&sig=…`, valid for at least the lifetime from `nowMs`. */
  sign(id: string, name: string, nowMs: number): string;
  /** True when the signature matches and `expires` (unix seconds) has not passed at `nowMs`. */
  verify(id: string, name: string, expires: string | undefined, sig: string | undefined, nowMs: number): boolean;
}

export function createSignedLinks(secret: Uint8Array, kind: LinkKind, prefix: string, ttlSeconds: number): SignedLinks {
  const { label, segment, expiryStepSeconds: step } = LINK_KINDS[kind];
  const key = createHmac('sha256', secret).update(label).digest();
  const mac = (id: string, name: string, expires: number): Buffer =>
    createHmac('sha256', key).update(`${id}\n${name}\n${expires}`).digest();
  return {
    sign(id, name, nowMs) {
      const earliest = Math.floor(nowMs / 1000) + ttlSeconds;
      const expires = Math.ceil(earliest / step) * step;
      const sig = mac(id, name, expires).toString('base64url');
      return `${prefix}/${segment}/${id}/${encodeURIComponent(name)}?expires=${expires}&sig=${sig}`;
    },
    verify(id, name, expires, sig, nowMs) {
      if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return false;
      const exp = Number(expires);
      if (exp * 1000 <= nowMs) return false;
      const given = Buffer.from(sig, 'base64url');
      const wanted = mac(id, name, exp);
      return given.length === wanted.length && timingSafeEqual(given, wanted);
    },
  };
}
