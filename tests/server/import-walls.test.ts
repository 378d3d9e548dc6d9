// The walls lint keeps (eslint.config.js, local/import-walls): each refuses an import across it,
// however it is written, and lets the imports on its own side through.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function wallsCrossed(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'local/import-walls').map((m) => m.message);
}

describe('import walls', () => {
  it.each([
    ['a feature into another feature', 'src/features/workshop/model/x.ts', "export { PROMPT_TYPES } from '../../prompts/model/prompt';"],
    ['a worker into a feature', 'src/workers/x.worker.ts', "export const load = () => import('../features/image-processing/model/upscale-settings');"],
    ['src/lib into the service worker', 'src/lib/offline/x.ts', "export { EXPIRY } from '../../sw/routes';"],
    ['server/http into a module', 'server/http/x.ts', "export type { AccessTokens } from '../modules/auth/access-tokens.js';"],
    ['server/storage into a module', 'server/storage/x.ts', "import { toModelViews } from '../modules/upscale/model-catalogue.js';\nexport const f = toModelViews;"],
    ['server/jobs into a module', 'server/jobs/pgboss/x.ts', "import type { UserRow } from '../../modules/users/user-view.js';\nexport type U = UserRow;"],
  ])('refuses %s', async (_wall, file, code) => {
    expect(await wallsCrossed(file, code)).toHaveLength(1);
  });

  it.each([
    ['a feature into itself, src/lib and shared/', 'src/features/workshop/components/x.ts', "export { sortFiles } from '../model/file-rules';\nexport { http } from '../../../lib/api/http-client';\nexport { PROMPT_TYPES } from '../../../../shared/prompts/prompt-rules';"],
    ['a worker into src/lib', 'src/workers/x.worker.ts', "export { buildResultsZip } from '../lib/zip/build-results-zip';"],
    ['the service worker into src/lib', 'src/sw/x.ts', "export { CACHE_NAMES } from '../lib/offline/cache-names';"],
    ['a module into http, storage and jobs', 'server/modules/upscale/x.ts', "export { AppError } from '../../http/app-error.js';\nexport { checkUploadedImage } from '../../storage/upload-check.js';\nexport { RetryableJobError } from '../../jobs/retryable-error.js';"],
  ])('lets through %s', async (_case, file, code) => {
    expect(await wallsCrossed(file, code)).toEqual([]);
  });
});
