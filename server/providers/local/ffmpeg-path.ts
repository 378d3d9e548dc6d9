// Which ffmpeg renders the built-in engine's videos: the configured one, else the system's on PATH
// (Debian's is newer), else the static build that ships inside @ffmpeg-installer/ffmpeg, so
// `npm install && npm start` renders videos on a fresh machine.
import { createRequire } from 'node:module';
import { findExecutable, isExecutable } from '../../child-processes.js';

export function ffmpegOnPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return findExecutable(process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg', env);
}

export function bundledFfmpeg(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const installer = require('@ffmpeg-installer/ffmpeg') as { path?: unknown };
    return typeof installer.path === 'string' && isExecutable(installer.path) ? installer.path : undefined;
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
