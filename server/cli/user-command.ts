// The operator's account commands: create, reset-password, disable, enable, list.
import { parseArgs } from 'node:util';
import { USER_LEVELS, type UserLevel } from '../db/schema.js';
import { AppError } from '../http/app-error.js';
import { message } from '../http/messages.js';
import type { Services } from '../services.js';

export const USAGE = `Usage: npm run user -- <command> [options]
  create <account> --password <pw> [--level ADMIN|DESIGNER|GENERAL] [--name <display name>]
                   [--phone <digits> --code <international code>] [--wechat <account>]
  reset-password <account> --password <pw>
  disable <account>
  enable <account>
  list [--search <text>]`;

export async function runUserCommand(argv: string[], services: Services, out: (line: string) => void): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      password: { type: 'string' },
      level: { type: 'string', default: 'DESIGNER' },
      name: { type: 'string' },
      phone: { type: 'string' },
      code: { type: 'string', default: '86' },
      wechat: { type: 'string' },
      search: { type: 'string' },
    },
  });
  const [command, account] = positionals;
  const needAccount = async () => {
    if (!account) throw new UsageError('an account is required');
    const user = await services.users.findByAccount(account);
    if (!user) throw new UsageError(`no account named ${account}`);
    return user;
  };
  try {
    switch (command) {
      case 'create': {
        if (!account) throw new UsageError('an account is required');
        if (!values.password || values.password.length < 6) throw new UsageError('--password of at least 6 characters is required');
        const level = values.level?.toUpperCase() as UserLevel;
        if (!USER_LEVELS.includes(level)) throw new UsageError(`--level must be one of ${USER_LEVELS.join(', ')}`);
        const user = await services.usersAdmin.create({
          account,
          password: values.password,
          user_level: level,
          display_name: values.name,
          phone: values.phone ?? null,
          international_code: values.code,
          wechat_account: values.wechat ?? null,
        });
        out(`created ${user.account} (${user.user_level}, id ${user.id})`);
        return 0;
      }
      case 'reset-password': {
        const user = await needAccount();
        if (!values.password || values.password.length < 6) throw new UsageError('--password of at least 6 characters is required');
        await services.usersAdmin.update(null, Number(user.id), { password: values.password });
        out(`password of ${user.account} reset; its sessions were signed out`);
        return 0;
      }
      case 'disable':
      case 'enable': {
        const user = await needAccount();
        await services.usersAdmin.update(null, Number(user.id), { disabled: command === 'disable' });
        out(`${user.account} ${command}d`);
        return 0;
      }
      case 'list': {
        const { items, total } = await services.usersAdmin.list(1, 100, values.search);
        for (const u of items) {
          out(`${String(u.id).padStart(4)}  ${u.account.padEnd(24)} ${u.user_level.padEnd(9)} ${u.disabled ? 'disabled' : 'active'}`);
        }
        out(`${total} account(s)`);
        return 0;
      }
      default:
        throw new UsageError(command ? `unknown command ${command}` : 'a command is required');
    }
  } catch (error) {
    if (error instanceof UsageError) {
      out(`error: ${error.message}\n${USAGE}`);
      return 2;
    }
    if (error instanceof AppError) {
      out(`error: ${message(error.key, 'en-US', error.options.vars)}`);
      return 1;
    }
    throw error;
  }
}

class UsageError extends Error {}
