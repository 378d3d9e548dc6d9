// Short-lived signed access tokens (HS256 JWT). The user row is still read on every request, so a
// disabled account stops working at once even while its token is unexpired, and a token whose
// version is older than the user's (after a logout or a password change) is refused.
import { SignJWT, jwtVerify, errors } from 'jose';
import type { UserLevel } from '../../db/schema.js';

export interface AccessClaims {
  userId: number;
  level: UserLevel;
  /** The user's token_version when the token was signed. */
  version: number;
}

const ISSUER = 'loom-studio';
const AUDIENCE = 'loom-studio-api';

export function createAccessTokens(secret: Uint8Array, ttlSeconds: number, now: () => Date = () => new Date()) {
  return {
    ttlSeconds,
    async sign(claims: AccessClaims): Promise<string> {
      return new SignJWT({ lvl: claims.level, ver: claims.version })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now())
        .setExpirationTime(new Date(now().getTime() + ttlSeconds * 1000))
        .sign(secret);
    },
    /** Returns the claims, or null for a missing, forged, malformed or expired token. */
    async verify(token: string): Promise<AccessClaims | null> {
      try {
        const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'],
          currentDate: now(),
        });
        const userId = Number(payload.sub);
        if (!Number.isInteger(userId)) return null;
        // Tokens signed before versions existed count as version 0; they expire within the TTL.
        const version = payload.ver ?? 0;
        if (typeof version !== 'number' || !Number.isInteger(version)) return null;
        return { userId, level: payload.lvl as UserLevel, version };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
