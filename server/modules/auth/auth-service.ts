// Sign-in, token issue and rotation, verification codes and throttling. No answer tells whether an
// account or a phone number exists: unknown and wrong look alike and take as long.
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { AttemptLimiter } from '../../http/attempt-limiter.js';
import type { UserRow } from '../users/user-view.js';
import { toUserView, type UserView } from '../users/user-view.js';
import type { UsersRepository } from '../users/users-repository.js';
import type { AccessTokens } from './access-tokens.js';
import type { PasswordHasher } from './passwords.js';
import type { RefreshTokens } from './refresh-tokens.js';
import type { SmsSender } from './sms-sender.js';
import { CODE_TTL_SECONDS, RESEND_AFTER_SECONDS, phoneKey, type VerificationCodes } from './verification-codes.js';

export interface SessionGrant {
  token: string;
  refresh_token: string;
  expires_in: number;
  user: UserView;
}

export interface AuthServiceDeps {
  users: UsersRepository;
  hasher: PasswordHasher;
  accessTokens: AccessTokens;
  refreshTokens: RefreshTokens;
  codes: VerificationCodes;
  sms: SmsSender;
  log: FastifyBaseLogger;
  throttle: { maxAttempts: number; windowSeconds: number };
  now: () => Date;
}

export function createAuthService(d: AuthServiceDeps) {
  const windowMs = d.throttle.windowSeconds * 1000;
  const clock = () => d.now().getTime();
  // Per IP: every attempt counts (a wider budget, shared by an office behind one address).
  const perIp = new AttemptLimiter(d.throttle.maxAttempts * 5, windowMs, clock);
  // Per account or phone: failures count; a success clears them.
  const perSubject = new AttemptLimiter(d.throttle.maxAttempts, windowMs, clock);
  const sendsPerIp = new AttemptLimiter(d.throttle.maxAttempts, windowMs, clock);
  const sendsPerPhone = new AttemptLimiter(10, 3600_000, clock);

  function enforce(limiter: AttemptLimiter, key: string): void {
    const decision = limiter.check(key);
    if (!decision.allowed) throw new AppError(429, 'too_many_requests', { retryAfterSeconds: decision.retryAfterSeconds });
  }

  async function grant(user: UserRow): Promise<SessionGrant> {
    const id = Number(user.id);
    return {
      token: await d.accessTokens.sign({ userId: id, level: user.user_level }),
      refresh_token: await d.refreshTokens.issue(id),
      expires_in: d.accessTokens.ttlSeconds,
      user: toUserView(user),
    };
  }

  async function passwordLogin(
    kind: 'account' | 'wechat',
    identifier: string,
    password: string,
    ip: string,
  ): Promise<SessionGrant> {
    const subject = `${kind}:${identifier.toLowerCase()}`;
    enforce(perIp, ip);
    enforce(perSubject, subject);
    perIp.hit(ip);
    const user = kind === 'account' ? await d.users.findByAccount(identifier) : await d.users.findByWechat(identifier);
    const valid = user?.password_hash
      ? await d.hasher.verify(user.password_hash, password)
      : (await d.hasher.verifyNothing(password), false);
    if (!user || !valid) {
      perSubject.hit(subject);
      throw new AppError(400, 'invalid_credentials');
    }
    // Only someone who knows the password learns that the account is disabled.
    if (Number(user.disabled)) throw new AppError(403, 'account_disabled');
    perSubject.reset(subject);
    return grant(user);
  }

  return {
    loginWithAccount: (account: string, password: string, ip: string) =>
      passwordLogin('account', account, password, ip),
    loginWithWechat: (wechat: string, password: string, ip: string) => passwordLogin('wechat', wechat, password, ip),

    async loginWithCode(phone: string, internationalCode: string, code: string, ip: string): Promise<SessionGrant> {
      const key = phoneKey(internationalCode, phone);
      enforce(perIp, ip);
      enforce(perSubject, `phone:${key}`);
      perIp.hit(ip);
      const ok = await d.codes.consume(key, code);
      const user = ok ? await d.users.findByPhone(internationalCode, phone) : undefined;
      if (!user) {
        perSubject.hit(`phone:${key}`);
        throw new AppError(400, 'code_invalid');
      }
      if (Number(user.disabled)) throw new AppError(403, 'account_disabled');
      perSubject.reset(`phone:${key}`);
      return grant(user);
    },

    async sendCode(phone: string, internationalCode: string, ip: string) {
      const key = phoneKey(internationalCode, phone);
      enforce(sendsPerIp, ip);
      enforce(sendsPerPhone, key);
      const issued = await d.codes.issue(key);
      if (!issued.ok) {
        throw new AppError(429, 'code_resend_too_soon', { retryAfterSeconds: issued.retryAfterSeconds });
      }
      sendsPerIp.hit(ip);
      sendsPerPhone.hit(key);
      // Unknown numbers get the same answer, but no message: nobody pays for texts to strangers.
      const user = await d.users.findByPhone(internationalCode, phone);
      if (user && !Number(user.disabled)) {
        try {
          await d.sms.send({ phone, internationalCode, code: issued.code });
        } catch (error) {
          d.log.error({ err: error }, 'verification code could not be sent');
          await d.codes.discard(issued.id);
          throw new AppError(502, 'code_send_failed');
        }
      }
      return { expires_in: CODE_TTL_SECONDS, resend_after: RESEND_AFTER_SECONDS };
    },

    async refresh(refreshToken: string): Promise<SessionGrant> {
      const rotated = await d.refreshTokens.rotate(refreshToken);
      const user = rotated ? await d.users.findById(rotated.userId) : undefined;
      if (!rotated || !user || Number(user.disabled)) throw new AppError(401, 'unauthorized');
      return {
        token: await d.accessTokens.sign({ userId: Number(user.id), level: user.user_level }),
        refresh_token: rotated.token,
        expires_in: d.accessTokens.ttlSeconds,
        user: toUserView(user),
      };
    },

    logout: (refreshToken: string | undefined) =>
      refreshToken ? d.refreshTokens.revoke(refreshToken) : Promise.resolve(),

    async changePassword(user: UserRow, oldPassword: string, newPassword: string): Promise<void> {
      const ok = user.password_hash ? await d.hasher.verify(user.password_hash, oldPassword) : false;
      if (!ok) throw new AppError(400, 'old_password_wrong');
      await d.users.update(Number(user.id), { password_hash: await d.hasher.hash(newPassword) });
      // Every other device must sign in again with the new password.
      await d.refreshTokens.revokeAllForUser(Number(user.id));
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
