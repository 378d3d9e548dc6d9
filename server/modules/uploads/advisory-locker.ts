// @tus/server's Locker on PostgreSQL advisory locks, so that any replica may continue an upload
// another began (the package ships only a lock in one process's memory). A held lock is a
// session-level pg_advisory_lock on a hash of the upload id, on a connection of its own: unlock
// gives it back, and a replica that dies, or loses its connection, loses its locks with it.
//
// The package's semantics, across processes: a request for a locked upload asks the holder to let
// go (its request ends after the drain time) and waits up to the timeout. The ask travels as a
// NOTIFY, which every replica's locker listens for, and a holder on the same replica is asked at once.
import type { Lock, Locker, RequestRelease } from '@tus/utils';
import { ERRORS } from '@tus/utils';
import pg from 'pg';

const CHANNEL = 'loom_upload_release';
/** Between two tries of a lock another holds. */
const RETRY_MS = 100;

export interface AdvisoryLockerOptions {
  url: string;
  /** Connections that hold locks: one per upload being written at once on this replica. */
  maxHeld?: number;
  /** How long a request waits for a lock before it fails (the package's default: 30 s). */
  acquireTimeoutMs?: number;
  onError?: (error: unknown) => void;
}

export interface AdvisoryLocker extends Locker {
  close(): Promise<void>;
}

export function createAdvisoryLocker(o: AdvisoryLockerOptions): AdvisoryLocker {
  const timeoutMs = o.acquireTimeoutMs ?? 30_000;
  const pool = new pg.Pool({
    connectionString: o.url,
    max: o.maxHeld ?? 20,
    connectionTimeoutMillis: timeoutMs,
  });
  const onError = o.onError ?? (() => undefined);
  // A connection the database closes (a restart) is dropped by the pool: its locks died with it.
  pool.on('error', onError);
  pool.on('connect', (client) => void client.on('error', onError));
  /** The requests of this replica that hold a lock, by upload id: who to ask to let go. */
  const holders = new Map<string, RequestRelease>();
  /** The connections that hold a lock now: closing the locker ends them, and their locks. */
  const held = new Set<pg.PoolClient>();
  let listener: Promise<pg.Client> | undefined;
  let closed = false;

  const listen = () => {
    listener ??= (async () => {
      const client = new pg.Client({ connectionString: o.url });
      client.on('error', (error) => {
        onError(error);
        // Listened for again at the next lock.
        listener = undefined;
      });
      client.on('notification', (n) => {
        const release = n.payload ? holders.get(n.payload) : undefined;
        if (release) void Promise.resolve(release()).catch(onError);
      });
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      return client;
    })().catch((error: unknown) => {
      listener = undefined;
      throw error;
    });
    return listener;
  };

  const askRelease = async (id: string) => {
    const local = holders.get(id);
    if (local) await local();
    await pool.query('SELECT pg_notify($1, $2)', [CHANNEL, id]);
  };

  class AdvisoryLock implements Lock {
    private client: pg.PoolClient | undefined;

    constructor(private readonly id: string) {}

    async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
      await listen().catch(onError);
      const deadline = Date.now() + timeoutMs;
      let asked = false;
      for (;;) {
        if (signal.aborted) throw ERRORS.ABORTED;
        // A connection is held only by a lock that was taken: a waiter gives its back between tries.
        const client = await pool.connect();
        let locked = false;
        try {
          const { rows } = await client.query<{ locked: boolean }>(
            'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
            [lockKey(this.id)],
          );
          locked = rows[0]?.locked === true;
        } finally {
          if (!locked) client.release();
        }
        if (locked) {
          this.client = client;
          held.add(client);
          holders.set(this.id, requestRelease);
          return;
        }
        if (!asked) {
          asked = true;
          await askRelease(this.id).catch(onError);
        }
        if (Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }

    async unlock(): Promise<void> {
      const client = this.client;
      if (!client) throw new Error('Releasing an unlocked lock!');
      this.client = undefined;
      held.delete(client);
      if (holders.get(this.id)) holders.delete(this.id);
      try {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockKey(this.id)]);
        client.release();
      } catch (error) {
        // The connection is gone or broken, and its locks with it: it is not lent again.
        client.release(error instanceof Error ? error : true);
        onError(error);
      }
    }
  }

  return {
    newLock: (id) => new AdvisoryLock(id),
    async close() {
      if (closed) return;
      closed = true;
      const client = await listener?.catch(() => undefined);
      await client?.end().catch(() => undefined);
      // A lock still held (a request cut off by the close) goes with its connection.
      for (const c of held) c.release(true);
      held.clear();
      await pool.end();
    },
  };
}

function lockKey(id: string): string {
  return `loom-upload:${id}`;
}
