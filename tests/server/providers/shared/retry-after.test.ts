// Reading every rate-limit hint a provider documents, and keeping the longest.
import { describe, expect, it } from 'vitest';
import { goDurationToMs, retryAfterFromHeaders } from '../../../../server/providers/shared/retry-after.js';

describe('rate-limit hints', () => {
  it('reads OpenAI reset durations as written: "1s", "6m0s", "20ms", "1m3.5s", "1h2m"', () => {
    expect(goDurationToMs('1s')).toBe(1000);
    expect(goDurationToMs('6m0s')).toBe(360_000);
    expect(goDurationToMs('20ms')).toBe(20);
    expect(goDurationToMs('1m3.5s')).toBe(63_500);
    expect(goDurationToMs('1h2m')).toBe(3_720_000);
    expect(goDurationToMs('0.5s')).toBe(500);
    expect(goDurationToMs('soon')).toBeUndefined();
    expect(goDurationToMs('')).toBeUndefined();
  });

  it('waits for the longest hint of all', () => {
    const headers = new Headers({ 'retry-after': '1', 'retry-after-ms': '1100', 'x-ratelimit-reset-requests': '20s', 'x-ratelimit-reset-tokens': '250ms' });
    expect(retryAfterFromHeaders(headers)).toBe(20_000);
    expect(retryAfterFromHeaders(new Headers({ 'x-ratelimit-reset-tokens': '6m0s' }))).toBe(360_000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterFromHeaders(new Headers({}))).toBeUndefined();
  });

  it('leaves out a reset hint whose limit still has room', () => {
    const headers = new Headers({
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '2s',
      'x-ratelimit-remaining-tokens': '40000',
      'x-ratelimit-reset-tokens': '6m0s',
    });
    expect(retryAfterFromHeaders(headers)).toBe(2000);
  });
});
