// Expiring download links for stored files, on the upscale service's pattern (signed-urls.ts): an
// HMAC over file id, name and expiry, so <img src> and <video src> work without a bearer header
// while nobody can guess or extend a link. The key is derived from the server secret with a label
// of its own, so an upscale result link cannot be turned into a file link or back. Links are only
// made by calls that have checked the file belongs to the signed-in user's rows.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface FileLinks {
  /** `<prefix>/files/<id>/<name>?expires=…&sig=…`, valid until at least `nowMs + ttl`. */
  sign(id: string, name: string, nowMs: number): string;
  verify(id: string, name: string, expires: string | undefined, sig: string | undefined, nowMs: number): boolean;
}

/** Expiry is rounded up to this step, so the same file gets the same link for a while and caches. */
const EXPIRY_STEP_SECONDS = 3600;

export function createFileLinks(secret: Uint8Array, prefix: string, ttlSeconds: number): FileLinks {
  const key = createHmac('sha256', secret).update('loom-generation-file-url-v1').digest();
  const mac = (id: string, name: string, expires: number): Buffer =>
    createHmac('sha256', key).update(`${id}\n${name}\n${expires}`).digest();
  return {
    sign(id, name, nowMs) {
      const earliest = Math.floor(nowMs / 1000) + ttlSeconds;
      const expires = Math.ceil(earliest / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
      const sig = mac(id, name, expires).toString('base64url');
      return `${prefix}/files/${id}/${encodeURIComponent(name)}?expires=${expires}&sig=${sig}`;
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
