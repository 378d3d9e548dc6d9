import { describe, expect, it } from 'vitest';
import { parseRetryAfterSeconds } from '../../../src/lib/api/retry-after';

describe('Retry-After', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfterSeconds('42', now)).toBe(42);
    expect(parseRetryAfterSeconds(' 0 ', now)).toBe(0);
    expect(parseRetryAfterSeconds(7, now)).toBe(7);
  });

  it('reads an HTTP-date as the seconds left until then, never negative', () => {
    expect(parseRetryAfterSeconds('Mon, 23 Nov 2026 10:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfterSeconds('Mon, 23 Nov 2026 09:59:00 GMT', now)).toBe(0);
  });

  it('ignores what is neither', () => {
    expect(parseRetryAfterSeconds(undefined, now)).toBeUndefined();
    expect(parseRetryAfterSeconds(null, now)).toBeUndefined();
    expect(parseRetryAfterSeconds('-5', now)).toBeUndefined();
    expect(parseRetryAfterSeconds('soon', now)).toBeUndefined();
  });
});
