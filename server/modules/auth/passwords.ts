// argon2id password hashing (the library's default algorithm; tests assert the $argon2id$ prefix).
import { hash, verify } from '@node-rs/argon2';

export const PASSWORD_MIN_LENGTH = 6;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
  /** Spends the time of one verification, so an unknown account answers as slowly as a known one. */
  verifyNothing(password: string): Promise<void>;
}

export function createPasswordHasher(cost: { memoryCost: number; timeCost: number }): PasswordHasher {
  const options = { memoryCost: cost.memoryCost, timeCost: cost.timeCost, parallelism: 1 };
  let dummyHash: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, options),
    async verify(passwordHash, password) {
      try {
        return await verify(passwordHash, password);
      } catch {
        return false; // a malformed stored hash never signs anyone in
      }
    },
    async verifyNothing(password) {
      dummyHash ??= hash('timing-equaliser', options);
      await verify(await dummyHash, password);
    },
  };
}
