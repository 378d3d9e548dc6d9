// Retry-After comes as delay-seconds or as an HTTP-date (RFC 9110 §10.2.3); proxies and gateways
// in front of the company's backends use either. Both become whole seconds from now.
export function parseRetryAfterSeconds(raw: unknown, now: number = Date.now()): number | undefined {
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const text = String(raw).trim();
  if (/^\d+$/.test(text)) return Number(text);
  // Every HTTP-date form starts with the day's name; this keeps "-5" from parsing as a year.
  const at = /^[a-z]/i.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
