// One dedicated PostgreSQL connection per process that LISTENs on a few channels and hands each
// notification to the callbacks of its channel. When the connection drops (the database
// restarted, an administrator ended the session) it reconnects with a growing pause and LISTENs
// again. What was notified while it was away is not heard: callers poll for what they must not miss.
import pg from 'pg';

export interface PgListenerOptions {
  connectionString: string;
  /** Warnings about a lost connection (the process goes on; it reconnects). */
  warn: (message: string, error?: unknown) => void;
  /** Longest pause between two connection attempts. */
  maxBackoffMs?: number;
}

type Callback = (payload: string) => void;

export class PgListener {
  private client: pg.Client | undefined;
  private readonly channels = new Map<string, Set<Callback>>();
  private stopped = false;
  private connecting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  /** Incremented on every (re)connection; tests and callers can see a reconnection happened. */
  generation = 0;

  constructor(private readonly o: PgListenerOptions) {}

  /** Connects and LISTENs on every channel registered so far. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect(true);
  }

  /** Registers a callback; LISTENs on the channel at once when connected. */
  async listen(channel: string, callback: Callback): Promise<() => void> {
    assertChannel(channel);
    let set = this.channels.get(channel);
    if (!set) {
      this.channels.set(channel, (set = new Set()));
      if (this.client) await this.client.query(`LISTEN ${channel}`).catch((e: unknown) => this.o.warn('LISTEN failed', e));
    }
    set.add(callback);
    return () => set.delete(callback);
  }

  /** The backend pid of the listening connection (tests end it to simulate a restart). */
  async backendPid(): Promise<number | undefined> {
    if (!this.client) return undefined;
    const r = await this.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return r.rows[0]?.pid;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connect(initial = false): Promise<void> {
    this.connecting ??= this.open(initial).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(initial: boolean): Promise<void> {
    const client = new pg.Client({ connectionString: this.o.connectionString, application_name: 'loom-listener' });
    let lost = false;
    let ready = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      // Before it was ready, the failing connect() below decides what happens.
      if (this.stopped || !ready) return;
      this.o.warn('database listener lost its connection; reconnecting', error);
      this.scheduleRetry();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      const set = this.channels.get(message.channel);
      if (!set) return;
      for (const callback of [...set]) {
        try {
          callback(message.payload ?? '');
        } catch (error) {
          this.o.warn('a notification callback failed', error);
        }
      }
    });
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      onLost(error);
      // At start a database that does not answer is the caller's error; later we keep trying.
      if (initial) throw error;
      if (!this.stopped) this.scheduleRetry();
      return;
    }
    if (this.stopped || lost) {
      await client.end().catch(() => undefined);
      if (lost && !this.stopped) this.scheduleRetry();
      return;
    }
    ready = true;
    this.client = client;
    this.failures = 0;
    this.generation += 1;
  }

  private scheduleRetry(): void {
    clearTimeout(this.retryTimer);
    const wait = Math.min(this.o.maxBackoffMs ?? 5000, 100 * 2 ** Math.min(this.failures, 10));
    this.failures += 1;
    this.retryTimer = setTimeout(() => void this.connect(), wait);
    this.retryTimer.unref();
  }
}

/** Channel names go into LISTEN unquoted: keep them plain identifiers. */
function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`bad channel name ${channel}`);
}
