import { isStorageUnavailable } from '../storage/storage-unavailable.js';

/** The Retry-After of a request that met an unreachable database: about how long a restart takes. */
export const DATABASE_RETRY_AFTER_SECONDS = 3;

/**
 * True when an error says the database could not be reached or dropped the connection (PostgreSQL
 * restarting, a failover): work that met it is worth trying again once the database is back. An
 * unreachable file storage is not the database (storage-unavailable.ts).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    // The shared storage's network errors carry the same codes: they are the storage's.
    if (isStorageUnavailable(current)) return false;
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') {
      // Refused or cut sockets, PostgreSQL's admin/crash shutdown and "cannot connect now", and
      // the connection exception class (08xxx).
      if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03'].includes(code) || code.startsWith('08'))
        return true;
    }
    if (/Connection terminated|connection terminated unexpectedly|Client has encountered a connection error/i.test(current.message))
      return true;
    current = current.cause;
  }
  return false;
}
