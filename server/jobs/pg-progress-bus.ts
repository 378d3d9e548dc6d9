// Job progress across processes: publish() hands the event to this process's subscribers at once
// and NOTIFYs every other process (API replicas and workers) on one channel; each process's
// listener connection delivers what the others said to its own subscribers. Notifications are
// sent one after another on the team pool, so one job's events arrive in the order it published
// them. PostgreSQL limits a payload to 8000 bytes: a larger event is stored in a small table and
// only its id is sent (rows are dropped after a few minutes).
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ProgressListener } from './job-queue.js';
import type { PgListener } from './pg-listener.js';
import { ProgressBus } from './progress-bus.js';

/** Runs one SQL statement on a pool connection (what pg-boss calls executeSql). */
export type SqlExecutor = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** Largest payload sent inline; PostgreSQL's limit is 8000 bytes. */
export const MAX_INLINE_PAYLOAD_BYTES = 7900;
const SPILL_KEEP_MINUTES = 10;

interface Wire {
  /** The publishing process: it has delivered the event itself already. */
  o: string;
  t?: string;
  e?: Record<string, unknown>;
  /** Id of a stored event too large to send inline. */
  s?: number;
}

export function progressChannel(namespace: string): string {
  return `loom_progress_${namespace}`.slice(0, 63);
}

export class PgProgressBus {
  private readonly local = new ProgressBus();
  private readonly origin = randomBytes(8).toString('hex');
  private readonly channel: string;
  private readonly spillTable: string;
  private sending: Promise<void> = Promise.resolve();
  private receiving: Promise<void> = Promise.resolve();
  private sweeper: NodeJS.Timeout | undefined;
  private unlisten: (() => void) | undefined;

  constructor(
    private readonly o: {
      sql: SqlExecutor;
      listener: PgListener;
      /** Schema of the spill table (the job engine's), also the channel's namespace. */
      schema: string;
      log: FastifyBaseLogger;
    },
  ) {
    this.channel = progressChannel(o.schema);
    this.spillTable = `"${o.schema}".loom_progress_spill`;
  }

  async start(): Promise<void> {
    await this.o.sql(`CREATE SCHEMA IF NOT EXISTS "${this.o.schema}"`);
    await this.o.sql(
      `CREATE UNLOGGED TABLE IF NOT EXISTS ${this.spillTable} (id bigserial PRIMARY KEY, payload text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
    );
    this.unlisten = await this.o.listener.listen(this.channel, (payload) => this.receive(payload));
    this.sweeper = setInterval(() => {
      void this.o
        .sql(`DELETE FROM ${this.spillTable} WHERE created_at < now() - interval '${SPILL_KEEP_MINUTES} minutes'`)
        .catch((error: unknown) => this.o.log.warn({ err: error }, 'could not sweep stored progress events'));
    }, 60_000);
    this.sweeper.unref();
  }

  subscribe(topic: string, listener: ProgressListener): () => void {
    return this.local.subscribe(topic, listener);
  }

  publish(topic: string, event: Record<string, unknown>): void {
    this.local.publish(topic, event);
    const text = JSON.stringify({ o: this.origin, t: topic, e: event } satisfies Wire);
    this.sending = this.sending
      .then(async () => {
        if (Buffer.byteLength(text) <= MAX_INLINE_PAYLOAD_BYTES) {
          await this.o.sql('SELECT pg_notify($1, $2)', [this.channel, text]);
          return;
        }
        const stored = await this.o.sql(`INSERT INTO ${this.spillTable} (payload) VALUES ($1) RETURNING id`, [text]);
        const pointer: Wire = { o: this.origin, s: Number(stored.rows[0]!.id) };
        await this.o.sql('SELECT pg_notify($1, $2)', [this.channel, JSON.stringify(pointer)]);
      })
      .catch((error: unknown) => this.o.log.warn({ err: error, topic }, 'could not send job progress to the other processes'));
  }

  /** Resolves when every event published so far has been sent. */
  flush(): Promise<void> {
    return this.sending;
  }

  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    this.unlisten?.();
    await this.sending;
    await this.receiving;
  }

  private receive(payload: string): void {
    let wire: Wire;
    try {
      wire = JSON.parse(payload) as Wire;
    } catch {
      return;
    }
    if (wire.o === this.origin) return;
    // In arrival order, including the stored ones that need a read first.
    this.receiving = this.receiving
      .then(async () => {
        if (wire.s !== undefined) {
          const r = await this.o.sql(`SELECT payload FROM ${this.spillTable} WHERE id = $1`, [wire.s]);
          const text = r.rows[0]?.payload;
          if (typeof text !== 'string') return;
          wire = JSON.parse(text) as Wire;
        }
        if (wire.t && wire.e) this.local.publish(wire.t, wire.e);
      })
      .catch((error: unknown) => this.o.log.warn({ err: error }, 'could not read a stored progress event'));
  }
}
