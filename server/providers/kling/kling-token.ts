// Kling's API token: a JWT (HS256, header typ JWT) signed with the secret key, iss = access key,
// valid from 5 s ago for 30 minutes, as Kling's documentation specifies. One token is reused
// until it has less than five minutes left.
import { SignJWT } from 'jose';

const LIFETIME_SECONDS = 1800;
const RENEW_BEFORE_SECONDS = 300;

export function createKlingTokenSource(accessKey: string, secretKey: string, now: () => number = () => Date.now()) {
  const key = new TextEncoder().encode(secretKey);
  let cached: { token: string; expiresAt: number } | undefined;
  return async (): Promise<string> => {
    const seconds = Math.floor(now() / 1000);
    if (cached && cached.expiresAt - seconds > RENEW_BEFORE_SECONDS) return cached.token;
    const expiresAt = seconds + LIFETIME_SECONDS;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(accessKey)
      .setExpirationTime(expiresAt)
      .setNotBefore(seconds - 5)
      .sign(key);
    cached = { token, expiresAt };
    return token;
  };
}
