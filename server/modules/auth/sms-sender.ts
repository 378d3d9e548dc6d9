// Where verification codes go. Default: the server log plus an outbox file (DATA_DIR/sms-outbox.jsonl)
// that an operator or a test can read. With SMS_WEBHOOK_URL: an HTTP POST to a real SMS gateway.
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

export interface SmsMessage {
  phone: string;
  internationalCode: string;
  code: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

export function createOutboxSender(dataDir: string, log: FastifyBaseLogger): SmsSender {
  const file = path.join(dataDir, 'sms-outbox.jsonl');
  return {
    async send(m) {
      // The code is logged on purpose: this sender exists for machines without an SMS gateway.
      log.info({ phone: `+${m.internationalCode} ${m.phone}`, code: m.code }, 'verification code (outbox sender)');
      const line = JSON.stringify({
        phone: m.phone,
        international_code: m.internationalCode,
        code: m.code,
        sent_at: new Date().toISOString(),
      });
      await appendFile(file, `${line}\n`, { mode: 0o600 });
    },
  };
}

export function createWebhookSender(url: string, token: string | undefined): SmsSender {
  return {
    async send(m) {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ phone: m.phone, international_code: m.internationalCode, code: m.code }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`SMS gateway answered ${res.status}`);
    },
  };
}
