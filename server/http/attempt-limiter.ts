// Fixed-window attempt counters in memory, keyed by anything (an IP, an account, a phone).
// One process holds its own counts; several replicas would each allow the limit (noted in README).
export interface LimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

export class AttemptLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether one more attempt is allowed now, without counting it. */
  check(key: string): LimitDecision {
    const w = this.current(key);
    if (!w || w.count < this.max) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + this.windowMs - this.now()) / 1000)) };
  }

  hit(key: string): void {
    const w = this.current(key);
    if (w) w.count += 1;
    else this.windows.set(key, { start: this.now(), count: 1 });
    if (this.windows.size > 50_000) this.sweep();
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string) {
    const w = this.windows.get(key);
    if (w && this.now() - w.start >= this.windowMs) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  private sweep(): void {
    const t = this.now();
    for (const [key, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(key);
  }
}
