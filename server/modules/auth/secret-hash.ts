import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Keyed hash for secrets we only ever compare (refresh tokens, verification codes). */
export function keyedHash(key: Uint8Array, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
