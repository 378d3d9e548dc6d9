// The bytes of uploads a group holds in memory at once: bodies being read, and what is kept of them
// until it is let go (images waiting for or in the upscale engine, generation uploads until they are
// on disk). Uploads are read into memory, so without a bound parallel uploads grow the process
// without limit (6 parallel upscale batches of 10 × 9 MB took it from 805 to 1,090 MB; 8 analyses of
// 12 × 9.5 MB took it from 388 to 1,339 MB). A request reserves its declared length before its body
// is read, counts what it actually reads (a chunked body declares nothing), keeps what it holds and
// gives bytes back as it lets go of them. One that would pass the limit is refused with the group's
// busy error (a 503 with Retry-After) — unless nothing else is held, so a request larger than the
// limit still runs on its own.
export class UploadBudget {
  private used = 0;

  constructor(
    readonly limitBytes: number,
    /** the refusal to throw: the group's 503 with its Retry-After */
    private readonly busy: () => Error,
  ) {}

  /** Bytes held by all requests now. */
  get inFlight(): number {
    return this.used;
  }

  /** A hold for one request, with `declaredBytes` reserved at once (or the busy error thrown). */
  reserve(declaredBytes: number): UploadHold {
    const hold = new UploadHold(
      (bytes, own) => this.take(bytes, own),
      (bytes) => (this.used -= bytes),
    );
    hold.grow(declaredBytes);
    return hold;
  }

  private take(bytes: number, own: number): void {
    const others = this.used - own;
    if (others > 0 && this.used + bytes > this.limitBytes) throw this.busy();
    this.used += bytes;
  }
}

/** What one request holds of the budget. */
export class UploadHold {
  private held = 0;
  private counted = 0;

  constructor(
    private readonly take: (bytes: number, own: number) => void,
    private readonly give: (bytes: number) => void,
  ) {}

  get bytes(): number {
    return this.held;
  }

  grow(bytes: number): void {
    if (bytes <= 0) return;
    this.take(bytes, this.held);
    this.held += bytes;
  }

  /** Bytes read from the body: past what was reserved, they must fit in the budget too. */
  count(bytes: number): void {
    this.counted += bytes;
    if (this.counted > this.held) this.grow(this.counted - this.held);
  }

  /** After reading: the hold becomes what is kept (the form's framing and refused files are gone). */
  settle(keptBytes: number): void {
    if (keptBytes < this.held) this.release(this.held - keptBytes);
  }

  /** Gives back bytes no longer held (a batch item that is done). */
  release(bytes: number): void {
    const n = Math.min(Math.max(0, bytes), this.held);
    this.held -= n;
    this.give(n);
  }

  /** The request is over: everything it held is given back. */
  close(): void {
    this.release(this.held);
  }
}
