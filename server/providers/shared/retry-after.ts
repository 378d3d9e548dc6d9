// Reading a server's "try again in …" hints: the HTTP Retry-After header (seconds or a date),
// OpenAI's retry-after-ms, OpenAI's x-ratelimit-reset-requests / x-ratelimit-reset-tokens
// (durations such as "1s", "6m0s", "20ms", "1m3.5s"), and google.rpc.Duration strings such as
// "34s" or "0.250s". A reply may carry several; the longest one is the one that holds.

/**
 * Milliseconds to wait by every rate-limit hint in the headers (the longest of them), or
 * undefined without a usable one. A reset-requests / reset-tokens hint whose matching
 * x-ratelimit-remaining-* header still shows capacity is not what stopped the request and is
 * left out: those headers come on every answer, and the token bucket's full refill can be minutes.
 */
export function retryAfterFromHeaders(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const hints = [retryAfterMs(headers), retryAfter(headers, now), resetHint(headers, 'requests'), resetHint(headers, 'tokens')].filter(
    (ms): ms is number => ms !== undefined,
  );
  return hints.length > 0 ? Math.max(...hints) : undefined;
}

function retryAfterMs(headers: Headers): number | undefined {
  const raw = headers.get('retry-after-ms');
  if (raw === null || raw.trim() === '') return undefined;
  const ms = Number(raw);
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms) : undefined;
}

function retryAfter(headers: Headers, now: number): number | undefined {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function resetHint(headers: Headers, limit: 'requests' | 'tokens'): number | undefined {
  const remaining = headers.get(`x-ratelimit-remaining-${limit}`);
  if (remaining !== null && Number(remaining) > 0) return undefined;
  return goDurationToMs(headers.get(`x-ratelimit-reset-${limit}`));
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, 'µs': 0.001, ns: 0.000001 };

/** Milliseconds from a duration as OpenAI writes it ("1s", "6m0s", "20ms", "1h2m3.5s"), or undefined. */
export function goDurationToMs(value: string | null | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!/^(\d+(\.\d+)?(h|ms|m|s|us|µs|ns))+$/.test(text)) return undefined;
  let total = 0;
  for (const match of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)) total += Number(match[1]) * UNIT_MS[match[2]!]!;
  return Math.round(total);
}

/** Milliseconds from a protobuf Duration in its JSON form ("34s", "1.5s"), or undefined. */
export function durationToMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}
