// Renders the built-in engine's video with ffmpeg: the first frame, framed to the requested aspect
// with sharp at a few times the output size (so zoompan's whole-pixel steps are sub-pixel in the
// output), moved by the camera path; for first-last-frame the last frame, moved the same way,
// fades in over the middle of the clip; the AIGC label is laid over the corner when asked.
// H.264 (libx264), yuv420p, +faststart: plays in every browser.
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnTied } from '../../child-processes.js';
import type { CameraMove, VideoRequest } from '../capabilities.js';
import { ProviderError } from '../capabilities.js';
import { aigcLabelPng } from './aigc-label.js';
import { cameraPath } from './camera-path.js';
import { videoFrameSize, type Size } from './canvas-size.js';
import { cancelledError, throwIfCancelled } from './cancellation.js';
import { LOCAL_PROVIDER } from './model-name.js';
import { readMp4Facts, videoTrack } from './mp4-facts.js';
import { newRenderFolder } from './render-folders.js';
import { cameraMovesInPrompt } from './prompt-writer.js';
import { decodeRasterCover, imageSize } from './raster.js';

export interface RenderSettings {
  ffmpegPath: string;
  /** Output frame rate (default 24). */
  fps?: number;
  /** Caps the short side below the resolution's (tests render tiny videos). */
  maxShortSide?: number;
  /** Longest a render may take before it is stopped (default 10 minutes). */
  timeoutMs?: number;
}

export interface RenderedVideo {
  data: Buffer;
  mimeType: 'video/mp4';
  width: number;
  height: number;
  durationSeconds: number;
  frames: number;
  camera: CameraMove[];
}

export const DEFAULT_FPS = 24;
const MIN_SECONDS = 1;
const MAX_SECONDS = 20;
/** Longest side of the supersampled source frame. */
const MAX_SOURCE_SIDE = 4096;
const MAX_SUPERSAMPLE = 3;

/** Camera moves of a request: its own list, else the brackets of its prompt, else a gentle push in. */
export function requestedMoves(request: VideoRequest): CameraMove[] {
  if (request.camera.length) return request.camera.slice(0, 3);
  const fromPrompt = cameraMovesInPrompt(request.prompt);
  return fromPrompt.length ? fromPrompt : ['Push in'];
}

export function frameCount(durationSeconds: number, fps: number): number {
  const seconds = Number.isFinite(durationSeconds) ? Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, durationSeconds)) : 6;
  return Math.max(2, Math.round(seconds * fps));
}

/** The ffmpeg filter graph: camera move per frame image, cross-fade, label, pixel format. */
export function filterGraph(p: {
  size: Size;
  frames: number;
  fps: number;
  camera: CameraMove[];
  hasLastFrame: boolean;
  labelMargin?: number;
}): string {
  const { size, frames, fps } = p;
  const motion = cameraPath(p.camera, frames, fps);
  const move = `zoompan=z='${motion.zoom}':x='${motion.x}':y='${motion.y}':d=${frames}:s=${size.width}x${size.height}:fps=${fps},setsar=1`;
  const chains: string[] = [`[0:v]format=yuv444p,${move}[first]`];
  let current = 'first';
  if (p.hasLastFrame) {
    const seconds = frames / fps;
    // The last frame fades in over the middle half, so both ends hold their own image a moment.
    const start = (seconds * 0.25).toFixed(3);
    const length = (seconds * 0.5).toFixed(3);
    chains.push(`[1:v]format=yuv444p,${move},format=yuva444p,fade=t=in:st=${start}:d=${length}:alpha=1[last]`);
    chains.push(`[first][last]overlay=format=yuv444:shortest=1[faded]`);
    current = 'faded';
  }
  if (p.labelMargin !== undefined) {
    const labelInput = p.hasLastFrame ? 2 : 1;
    chains.push(`[${current}][${labelInput}:v]overlay=x=W-w-${p.labelMargin}:y=H-h-${p.labelMargin}:format=yuv444[labelled]`);
    current = 'labelled';
  }
  chains.push(`[${current}]format=yuv420p[out]`);
  return chains.join(';');
}

/** Background priority for a child process: 10 nicer than it started; where that is not allowed it runs as it is. */
export function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    os.setPriority(pid, Math.min(19, os.getPriority(pid) + 10));
  } catch {
    // not permitted here: the render just competes as before
  }
}

function runFfmpeg(ffmpeg: string, args: string[], signal: AbortSignal, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    throwIfCancelled(signal);
    // Tied to the server: a server killed mid-render takes its ffmpeg with it.
    const child = spawnTied(ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    // Renders are batch work: the CPU goes first to the work a person is watching (an analysis).
    lowerPriority(child.pid);
    let stderr = '';
    let timedOut = false;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const kill = () => child.kill('SIGKILL');
    signal.addEventListener('abort', kill, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', kill);
    };
    child.on('error', (e) => {
      done();
      reject(new ProviderError('unavailable', `ffmpeg could not start: ${e.message}`, { provider: LOCAL_PROVIDER, cause: e }));
    });
    child.on('close', (code) => {
      done();
      if (signal.aborted) reject(cancelledError());
      else if (timedOut) reject(new ProviderError('timeout', `ffmpeg took longer than ${timeoutMs} ms`, { provider: LOCAL_PROVIDER }));
      else if (code !== 0) {
        const last = stderr.trim().split('\n').slice(-3).join(' | ');
        reject(new ProviderError('unavailable', `ffmpeg failed (exit ${code}): ${last}`, { provider: LOCAL_PROVIDER }));
      } else resolve();
    });
  });
}

export async function renderVideo(request: VideoRequest, settings: RenderSettings, signal: AbortSignal): Promise<RenderedVideo> {
  throwIfCancelled(signal);
  const fps = settings.fps ?? DEFAULT_FPS;
  const first = await imageSize(request.firstFrame.data);
  const size = videoFrameSize(request.aspect, request.resolution, first, settings.maxShortSide);
  const frames = frameCount(request.durationSeconds, fps);
  const camera = requestedMoves(request);
  const last = request.kind === 'first-last-frame' ? request.lastFrame : undefined;
  if (request.kind === 'first-last-frame' && !last) {
    throw new ProviderError('invalid_request', 'a first-last-frame video needs a last frame', { provider: LOCAL_PROVIDER });
  }
  const supersample = Math.max(1, Math.min(MAX_SUPERSAMPLE, Math.floor(MAX_SOURCE_SIDE / Math.max(size.width, size.height))));
  const source = { width: size.width * supersample, height: size.height * supersample };

  const dir = await newRenderFolder();
  try {
    const rawInput = async (data: Buffer, name: string) => {
      const raster = await decodeRasterCover(data, source.width, source.height);
      const file = path.join(dir, name);
      await writeFile(file, raster.data);
      return ['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${source.width}x${source.height}`, '-i', file];
    };
    const inputs = [...(await rawInput(request.firstFrame.data, 'first.rgb'))];
    if (last) inputs.push(...(await rawInput(last.data, 'last.rgb')));
    const short = Math.min(size.width, size.height);
    let labelMargin: number | undefined;
    if (request.watermark) {
      const labelFile = path.join(dir, 'aigc.png');
      await writeFile(labelFile, await aigcLabelPng(Math.max(12, Math.round(short * 0.07))));
      inputs.push('-i', labelFile);
      labelMargin = Math.max(4, Math.round(short * 0.03));
    }
    throwIfCancelled(signal);
    const filter = filterGraph({ size, frames, fps, camera, hasLastFrame: Boolean(last), labelMargin });
    const output = path.join(dir, 'video.mp4');
    const args = [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      ...inputs,
      '-filter_complex',
      filter,
      '-map',
      '[out]',
      '-frames:v',
      String(frames),
      '-r',
      String(fps),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      '-an',
      output,
    ];
    await runFfmpeg(settings.ffmpegPath, args, signal, settings.timeoutMs ?? 10 * 60_000);
    const data = await readFile(output);
    let facts;
    try {
      facts = readMp4Facts(data);
    } catch (e) {
      throw new ProviderError('bad_response', 'ffmpeg wrote an unreadable MP4', { provider: LOCAL_PROVIDER, cause: e });
    }
    const track = videoTrack(facts);
    return {
      data,
      mimeType: 'video/mp4',
      width: track?.width ?? size.width,
      height: track?.height ?? size.height,
      durationSeconds: track?.durationSeconds || facts.durationSeconds,
      frames: track?.sampleCount ?? frames,
      camera,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
