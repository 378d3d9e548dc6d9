// Download links for results: an HMAC over id, file name and expiry, so <img src> and plain
// downloads work without a bearer header while nobody can guess or extend a link. The key is
// derived from the server secret (shared by every host that verifies access tokens).
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedUrls {
  /** The path and query of a result's link (`<prefix>/results/<id>/<file>?expires=…&sig=…`). */
  sign(id: string, filename: string, expiresAt: number): string;
  /** True when the signature matches and `expires` (unix seconds) has not passed at `nowMs`. */
  verify(
    id: string,
    filename: string,
    expires: string | undefined,
    sig: string | undefined,
    nowMs: number,
  ): boolean;
}

export function createSignedUrls(secret: Uint8Array, prefix: string): SignedUrls {
  const key = createHmac('sha256', secret).update('loom-upscale-result-url-v1').digest();
  const mac = (id: string, filename: string, expires: number): Buffer =>
    createHmac('sha256', key).update(`${id}\n${filename}\n${expires}`).digest();
  return {
    sign(id, filename, expiresAt) {
      const expires = Math.floor(expiresAt / 1000);
      const sig = mac(id, filename, expires).toString('base64url');
      return `${prefix}/results/${id}/${encodeURIComponent(filename)}?expires=${expires}&sig=${sig}`;
    },
    verify(id, filename, expires, sig, nowMs) {
      if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return false;
      const exp = Number(expires);
      if (exp * 1000 <= nowMs) return false;
      const given = Buffer.from(sig, 'base64url');
      const wanted = mac(id, filename, exp);
      return given.length === wanted.length && timingSafeEqual(given, wanted);
    },
  };
}
