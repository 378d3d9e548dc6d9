// Which ffmpeg renders the built-in engine's videos: the configured one, else the system's on PATH
// (Debian's is newer), else the static build that ships inside @ffmpeg-installer/ffmpeg, so
// `npm install && npm start` renders videos on a fresh machine.
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function ffmpegOnPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const names = process.platform === 'win32' ? ['ffmpeg.exe'] : ['ffmpeg'];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (executable(candidate)) return candidate;
    }
  }
  return undefined;
}

export function bundledFfmpeg(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const installer = require('@ffmpeg-installer/ffmpeg') as { path?: unknown };
    return typeof installer.path === 'string' && executable(installer.path) ? installer.path : undefined;
  } catch {
    // The package has no build for this platform.
    return undefined;
  }
}

/** The ffmpeg to run, or undefined when there is none. */
export function resolveFfmpegPath(configured?: string): string | undefined {
  if (configured) return configured;
  return ffmpegOnPath() ?? bundledFfmpeg();
}
