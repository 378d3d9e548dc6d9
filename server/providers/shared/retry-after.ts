// Reading a server's "try again in …" hint: the HTTP Retry-After header (seconds or a date),
// OpenAI's retry-after-ms, and google.rpc.Duration strings such as "34s" or "0.250s".

/** Milliseconds from a Retry-After / retry-after-ms header pair, or undefined without a usable one. */
export function retryAfterFromHeaders(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Milliseconds from a protobuf Duration in its JSON form ("34s", "1.5s"), or undefined. */
export function durationToMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}
