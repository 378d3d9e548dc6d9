// A creation call's Idempotency-Key: 128 random bits in hex, in the server's accepted form, also
// where crypto.randomUUID is missing (a page on a plain-http LAN address).
import { describe, expect, it } from 'vitest';
import { newIdempotencyKey } from '../../../src/lib/api/idempotency-key';

/** The server's form (server/http/idempotency-store.ts). */
const SERVER_FORM = /^[A-Za-z0-9_.:-]{8,128}$/;

describe('newIdempotencyKey', () => {
  it('is the 16 random bytes in hex', () => {
    const bytes = [0, 1, 15, 16, 127, 128, 254, 255, 9, 10, 11, 12, 13, 14, 171, 205];
    const fill = (a: Uint8Array) => (a.set(bytes), a);
    const random = { getRandomValues: fill as Crypto['getRandomValues'] };
    expect(newIdempotencyKey(random)).toBe('00010f107f80feff090a0b0c0d0eabcd');
  });

  it('is in the server\'s form, and new each time', () => {
    const keys = Array.from({ length: 50 }, () => newIdempotencyKey());
    for (const key of keys) expect(key).toMatch(SERVER_FORM);
    expect(new Set(keys).size).toBe(50);
  });
});
