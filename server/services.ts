// Wires repositories and services over one database: what routes, the CLI and tests share.
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.js';
import type { Db } from './db/database.js';
import { createAttemptLimits } from './http/attempt-limiter.js';
import { createIdempotencyStore } from './http/idempotency-store.js';
import { createAccessTokens } from './modules/auth/access-tokens.js';
import { createAuthService } from './modules/auth/auth-service.js';
import { createPasswordHasher } from './modules/auth/passwords.js';
import { createRefreshTokens } from './modules/auth/refresh-tokens.js';
import { createOutboxSender, createWebhookSender, type SmsSender } from './modules/auth/sms-sender.js';
import { createVerificationCodes } from './modules/auth/verification-codes.js';
import { createUsersRepository } from './modules/users/users-repository.js';
import { createUsersService } from './modules/users/users-service.js';
import { promptDb } from './modules/prompts/prompt-tables.js';
import { createPromptsRepository } from './modules/prompts/prompts-repository.js';
import { createPromptsService } from './modules/prompts/prompts-service.js';

export interface ServiceOverrides {
  /** The clock every expiry is measured against; tests move it forward. */
  now?: () => Date;
  sms?: SmsSender;
}

export function createServices(config: AppConfig, db: Db, log: FastifyBaseLogger, o: ServiceOverrides = {}) {
  const now = o.now ?? (() => new Date());
  const hasher = createPasswordHasher(config.argon2);
  const users = createUsersRepository(db.kysely, now);
  const accessTokens = createAccessTokens(config.jwtSecret, config.accessTokenTtlSeconds, now);
  const refreshTokens = createRefreshTokens(db.kysely, config.jwtSecret, config.refreshTokenTtlSeconds, now);
  const codes = createVerificationCodes(db.kysely, config.jwtSecret, now);
  const sms =
    o.sms ??
    (config.sms.kind === 'webhook'
      ? createWebhookSender(config.sms.url, config.sms.token)
      : createOutboxSender(config.dataDir, log));
  return {
    now,
    hasher,
    users,
    accessTokens,
    refreshTokens,
    auth: createAuthService({
      users,
      hasher,
      accessTokens,
      refreshTokens,
      codes,
      sms,
      log,
      throttle: config.loginThrottle,
      limits: createAttemptLimits(db.kysely, now),
    }),
    usersAdmin: createUsersService(users, hasher, refreshTokens),
    prompts: createPromptsService(
      promptDb(db.kysely),
      createPromptsRepository(now),
      createIdempotencyStore(db.kysely, now),
    ),
  };
}

export type Services = ReturnType<typeof createServices>;
