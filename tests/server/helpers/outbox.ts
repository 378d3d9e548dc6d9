import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface OutboxEntry {
  phone: string;
  international_code: string;
  code: string;
  sent_at: string;
}

/** Codes the default SMS sender wrote to DATA_DIR/sms-outbox.jsonl, oldest first. */
export function readOutbox(dataDir: string): OutboxEntry[] {
  const file = path.join(dataDir, 'sms-outbox.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OutboxEntry);
}

export function lastCodeFor(dataDir: string, phone: string): string | undefined {
  return readOutbox(dataDir)
    .filter((e) => e.phone === phone)
    .at(-1)?.code;
}
