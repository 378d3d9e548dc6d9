// Repeats of one single-upscale request (same user, same Idempotency-Key, same image and
// parameters) get the first answer instead of a second engine run: the PWA resends with the same
// key when a connection drops after the upload may have reached us. A failed or cancelled first
// attempt is forgotten, so the repeat runs afresh.
import { createHash } from 'node:crypto';
import type { UpscaleParams } from './upscale-params.js';
import type { UpscaleOutcome } from './upscale-service.js';

const MAX_ENTRIES = 2_000;
const MAX_TTL_MS = 3_600_000;

interface Entry {
  expiresAt: number;
  outcome: Promise<UpscaleOutcome>;
}

export class IdempotentResults {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;

  constructor(
    resultTtlSeconds: number,
    private readonly now: () => Date,
  ) {
    // Never hand out a link that is about to expire.
    this.ttlMs = Math.min(MAX_TTL_MS, (resultTtlSeconds * 1000) / 2);
  }

  static fingerprint(userId: number, params: UpscaleParams, image: Buffer): string {
    return createHash('sha256')
      .update(`${userId}\n${JSON.stringify(params)}\n`)
      .update(image)
      .digest('base64url');
  }

  async run(
    key: string | undefined,
    fingerprint: string,
    work: () => Promise<UpscaleOutcome>,
  ): Promise<UpscaleOutcome> {
    if (!key || key.length > 200) return work();
    const nowMs = this.now().getTime();
    for (const [k, e] of this.entries) if (e.expiresAt <= nowMs) this.entries.delete(k);
    const id = `${key}\n${fingerprint}`;
    const hit = this.entries.get(id);
    if (hit) {
      try {
        return await hit.outcome;
      } catch {
        // The first attempt failed or was cancelled: run again below.
      }
    }
    const outcome = work();
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, { expiresAt: nowMs + this.ttlMs, outcome });
    outcome.catch(() => {
      if (this.entries.get(id)?.outcome === outcome) this.entries.delete(id);
    });
    return outcome;
  }
}
