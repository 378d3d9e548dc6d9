// Sign-in, token issue and rotation, verification codes and throttling. No answer tells whether an
// account or a phone number exists: unknown and wrong look alike and take as long.
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import type { AttemptLimiter, AttemptLimits } from '../../http/attempt-limiter.js';
import type { UserRow } from '../users/user-view.js';
import { toUserView, userViewSchema } from '../users/user-view.js';
import type { UsersRepository } from '../users/users-repository.js';
import type { AccessTokens } from './access-tokens.js';
import type { SweepCounts } from './expiry-sweep.js';
import type { PasswordHasher } from './passwords.js';
import type { RefreshTokens } from './refresh-tokens.js';
import type { SmsSender } from './sms-sender.js';
import { CODE_TTL_SECONDS, RESEND_AFTER_SECONDS, phoneKey, type VerificationCodes } from './verification-codes.js';

/** What every sign-in and refresh answers: the token pair and the profile. */
export const sessionGrantSchema = z
  .object({
    token: z.string(),
    refresh_token: z.string(),
    expires_in: z.number().int().meta({ description: "The access token's lifetime in seconds." }),
    user: userViewSchema,
  })
  .meta({ id: 'SessionGrant' });
export type SessionGrant = z.output<typeof sessionGrantSchema>;

export const codeSentSchema = z
  .object({
    expires_in: z.number().int().meta({ description: 'Seconds the code stays valid.' }),
    resend_after: z.number().int().meta({ description: 'Seconds before another code may be asked for.' }),
  })
  .meta({ id: 'CodeSent' });

export interface AuthServiceDeps {
  users: UsersRepository;
  hasher: PasswordHasher;
  accessTokens: AccessTokens;
  refreshTokens: RefreshTokens;
  codes: VerificationCodes;
  sms: SmsSender;
  log: FastifyBaseLogger;
  throttle: { maxAttempts: number; windowSeconds: number };
  /** Limiters whose counters every replica shares and a restart keeps. */
  limits: AttemptLimits;
}

// How many times an account's per-address budget the account may fail from all addresses together.
// Wide enough that one guessing address cannot lock the owner out elsewhere; a guesser with many
// addresses still meets a ceiling.
const ACCOUNT_BACKSTOP_FACTOR = 5;

export function createAuthService(d: AuthServiceDeps) {
  const { maxAttempts: max, windowSeconds } = d.throttle;
  // Per address: every attempt counts (a wider budget, shared by an office behind one address).
  const attemptsPerAddress = d.limits.limiter('login-address', max * 5, windowSeconds);
  // Per account (or phone) at one address: failures count; a success there clears them.
  const failuresPerPair = d.limits.limiter('login-pair', max, windowSeconds);
  // Per account from all addresses: the backstop against guessing from many addresses.
  const failuresPerSubject = d.limits.limiter('login-subject', max * ACCOUNT_BACKSTOP_FACTOR, windowSeconds);
  const sendsPerAddress = d.limits.limiter('send-address', max, windowSeconds);
  const sendsPerPhone = d.limits.limiter('send-phone', 10, 3600);
  // Old-password checks per signed-in user: a stolen access token must not become a guessing oracle.
  const passwordChecks = d.limits.limiter('password-check', max, windowSeconds);

  /**
   * Takes one try from each limiter in turn, before any secret is compared, so parallel requests
   * cannot all pass one check; when one refuses, the tries already taken are given back.
   */
  async function takeTries(tries: [AttemptLimiter, string][]): Promise<void> {
    for (const [index, [limiter, key]] of tries.entries()) {
      const decision = await limiter.take(key);
      if (decision.allowed) continue;
      await Promise.all(tries.slice(0, index).map(([l, k]) => l.giveBack(k)));
      throw new AppError(429, 'too_many_requests', { retryAfterSeconds: decision.retryAfterSeconds });
    }
  }

  async function signFor(user: UserRow): Promise<string> {
    return d.accessTokens.sign({ userId: Number(user.id), level: user.user_level, version: Number(user.token_version) });
  }

  async function grant(user: UserRow): Promise<SessionGrant> {
    return {
      token: await signFor(user),
      refresh_token: await d.refreshTokens.issue(Number(user.id)),
      expires_in: d.accessTokens.ttlSeconds,
      user: toUserView(user),
    };
  }

  /** Takes the tries of one sign-in: the address's, the subject's at that address, the subject's. */
  async function takeSignInTries(subject: string, ip: string): Promise<() => Promise<void>> {
    const pair = `${subject}|${ip}`;
    await takeTries([
      [attemptsPerAddress, ip],
      [failuresPerPair, pair],
      [failuresPerSubject, subject],
    ]);
    // After a success: this address's failures are forgiven; elsewhere's still count.
    return async () => {
      await failuresPerPair.reset(pair);
      await failuresPerSubject.giveBack(subject);
    };
  }

  async function passwordLogin(
    kind: 'account' | 'wechat',
    identifier: string,
    password: string,
    ip: string,
  ): Promise<SessionGrant> {
    const succeeded = await takeSignInTries(`${kind}:${identifier.toLowerCase()}`, ip);
    const user = kind === 'account' ? await d.users.findByAccount(identifier) : await d.users.findByWechat(identifier);
    const valid = user?.password_hash
      ? await d.hasher.verify(user.password_hash, password)
      : (await d.hasher.verifyNothing(password), false);
    if (!user || !valid) throw new AppError(400, 'invalid_credentials');
    // Only someone who knows the password learns that the account is disabled.
    if (Number(user.disabled)) throw new AppError(403, 'account_disabled');
    await succeeded();
    return grant(user);
  }

  return {
    loginWithAccount: (account: string, password: string, ip: string) =>
      passwordLogin('account', account, password, ip),
    loginWithWechat: (wechat: string, password: string, ip: string) => passwordLogin('wechat', wechat, password, ip),

    async loginWithCode(phone: string, internationalCode: string, code: string, ip: string): Promise<SessionGrant> {
      const key = phoneKey(internationalCode, phone);
      const succeeded = await takeSignInTries(`phone:${key}`, ip);
      const ok = await d.codes.consume(key, code);
      const user = ok ? await d.users.findByPhone(internationalCode, phone) : undefined;
      if (!user) throw new AppError(400, 'code_invalid');
      if (Number(user.disabled)) throw new AppError(403, 'account_disabled');
      await succeeded();
      return grant(user);
    },

    async sendCode(phone: string, internationalCode: string, ip: string): Promise<z.output<typeof codeSentSchema>> {
      const key = phoneKey(internationalCode, phone);
      await takeTries([
        [sendsPerAddress, ip],
        [sendsPerPhone, key],
      ]);
      const issued = await d.codes.issue(key);
      if (!issued.ok) {
        // Nothing was sent: the refusal costs neither budget.
        await Promise.all([sendsPerAddress.giveBack(ip), sendsPerPhone.giveBack(key)]);
        throw new AppError(429, 'code_resend_too_soon', { retryAfterSeconds: issued.retryAfterSeconds });
      }
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

    /** Deletes what can never be used again: expired refresh tokens and codes, lapsed throttle windows. */
    async sweepExpired(): Promise<SweepCounts> {
      return {
        refreshTokens: await d.refreshTokens.deleteExpired(),
        verificationCodes: await d.codes.deleteExpired(),
        throttleCounters: await d.limits.deleteLapsed(),
      };
    },

    async refresh(refreshToken: string): Promise<SessionGrant> {
      const rotated = await d.refreshTokens.rotate(refreshToken);
      const user = rotated ? await d.users.findById(rotated.userId) : undefined;
      if (!rotated || !user || Number(user.disabled)) throw new AppError(401, 'unauthorized');
      return {
        token: await signFor(user),
        refresh_token: rotated.token,
        expires_in: d.accessTokens.ttlSeconds,
        user: toUserView(user),
      };
    },

    async logout(refreshToken: string | undefined): Promise<void> {
      // Only a live refresh token ends anything; an unknown, expired, rotated or revoked one gets the
      // same answer and changes nothing, so an old token cannot keep signing its owner out.
      const userId = refreshToken ? await d.refreshTokens.revoke(refreshToken) : null;
      // Ends the user's access tokens on every device, not only this one's: one version per user is
      // far simpler than a list of revoked tokens. Other devices keep their refresh tokens and get
      // a new access token on their next 401; this device's family is revoked above.
      if (userId !== null) await d.users.bumpTokenVersion(userId);
    },

    async changePassword(user: UserRow, oldPassword: string, newPassword: string): Promise<void> {
      const id = Number(user.id);
      await takeTries([[passwordChecks, String(id)]]);
      const ok = user.password_hash ? await d.hasher.verify(user.password_hash, oldPassword) : false;
      if (!ok) throw new AppError(400, 'old_password_wrong');
      await passwordChecks.reset(String(id));
      await d.users.update(id, { password_hash: await d.hasher.hash(newPassword) });
      // Every device, this one included, must sign in again with the new password.
      await d.refreshTokens.revokeAllForUser(id);
      await d.users.bumpTokenVersion(id);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
