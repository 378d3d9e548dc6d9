// The first administrator: from ADMIN_ACCOUNT/ADMIN_PASSWORD, or generated on a fresh database
// with its password shown once.
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../../config.js';
import type { Services } from '../../services.js';

export interface AdminSeed {
  account: string;
  /** Present only when the password was generated now and must be shown to the operator. */
  generatedPassword?: string;
  created: boolean;
}

export async function ensureAdmin(config: AppConfig, services: Services): Promise<AdminSeed> {
  const account = config.admin?.account;
  if (account) {
    const existing = await services.users.findByAccount(account);
    if (existing) {
      // ADMIN_PASSWORD is the operator's word for this account: keep the stored hash in step with it.
      if (config.admin?.password && !(await services.hasher.verify(existing.password_hash ?? '', config.admin.password))) {
        await services.users.update(Number(existing.id), { password_hash: await services.hasher.hash(config.admin.password) });
      }
      return { account, created: false };
    }
    const generated = config.admin?.password ? undefined : randomPassword();
    await services.usersAdmin.create({ account, password: config.admin?.password ?? generated, user_level: 'ADMIN' });
    return { account, created: true, generatedPassword: generated };
  }
  if ((await services.users.countActiveAdmins()) > 0) return { account: '', created: false };
  const fallback = 'admin';
  if (await services.users.findByAccount(fallback)) return { account: fallback, created: false };
  const generated = randomPassword();
  await services.usersAdmin.create({ account: fallback, password: generated, user_level: 'ADMIN', display_name: 'Administrator' });
  return { account: fallback, created: true, generatedPassword: generated };
}

function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}
