// The Idempotency-Key of a creation call: the server applies one key once and answers every resend
// of it with what the first made. One key per thing the person asked for, kept across its attempts.

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** 128 random bits in hex; getRandomValues works where randomUUID does not (a plain-http LAN address). */
export function newIdempotencyKey(random: Pick<Crypto, 'getRandomValues'> = crypto): string {
  return Array.from(random.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
