import { describe, expect, it } from 'vitest';
import {
  CACHE_NAMES,
  classifyRequest,
  isAppNavigation,
  PRECACHE_IGNORES,
  USER_CACHE_PREFIX,
  type RequestFacts,
} from '../../../src/sw/routes';

const origin = 'https://studio.example';
const req = (path: string, extra: Partial<RequestFacts> = {}): RequestFacts => ({
  url: path.startsWith('http') ? path : `${origin}${path}`,
  method: 'GET',
  mode: 'cors',
  destination: '',
  ...extra,
});
const kind = (path: string, extra: Partial<RequestFacts> = {}) => classifyRequest(req(path, extra), origin);

describe('service worker routing rules', () => {
  it('falls back to the app shell for app navigations only', () => {
    for (const path of ['/', '/index.html', '/prompt-management', '/settings/', '/history?tab=videos']) {
      expect(kind(path, { mode: 'navigate', destination: 'document' })).toBe('navigation');
    }
  });

  it('never treats API paths or files as navigations', () => {
    for (const path of [
      '/api',
      '/api/prompts/',
      '/image-api/regenerate-stream',
      '/upscale-api/models',
      '/third-api/x',
      '/sw.js',
      '/manifest.webmanifest',
      '/assets/index-abc123.js',
      '/config.json',
    ]) {
      expect(kind(path, { mode: 'navigate', destination: 'document' })).toBe('passthrough');
    }
    expect(isAppNavigation('/apiary')).toBe(true);
    expect(isAppNavigation('/api/')).toBe(false);
  });

  it('leaves API calls, other origins and non-GET requests to the network', () => {
    expect(kind('/api/prompts/')).toBe('passthrough');
    expect(kind('/api/user/profile', { destination: '' })).toBe('passthrough');
    expect(kind('/api/prompts/image/', { method: 'PUT' })).toBe('passthrough');
    expect(kind('/config.json', { method: 'POST' })).toBe('passthrough');
    expect(kind('https://cdn.other.example/a.png', { destination: 'image' })).toBe('passthrough');
  });

  it('goes network-first for /config.json but leaves the reachability probe alone', () => {
    expect(kind('/config.json')).toBe('config');
    expect(kind('/config.json?reachability=1&t=5')).toBe('passthrough');
  });

  it('caches locale chunks and files with expiry', () => {
    expect(kind('/assets/zh-CN-Bx9_a1Q2.js', { destination: 'script' })).toBe('locale');
    expect(kind('/assets/th-TH-abcdef12.js')).toBe('locale');
    expect(kind('/locales/id-ID.json')).toBe('locale');
    expect(kind('/assets/index-abcdef12.js')).toBe('passthrough');
    expect(kind('/assets/fr-FR-abcdef12.js')).toBe('passthrough');
  });

  it('caches media: images, thumbnails, posters and videos, also behind the API', () => {
    expect(kind('/files/thumb/42.webp')).toBe('media');
    expect(kind('/api/files/7', { destination: 'image' })).toBe('media');
    expect(kind('/media/poster.JPG')).toBe('media');
    expect(kind('/media/clip.mp4', { destination: 'video' })).toBe('video');
    expect(kind('/api/files/9/clip.mp4?expires=1&sig=x')).toBe('video');
    expect(kind('/api/files/9', { destination: 'video' })).toBe('video');
  });

  it('keeps heavy and runtime-cached files out of the precache', () => {
    expect(PRECACHE_IGNORES).toEqual(
      expect.arrayContaining([
        '**/*.map',
        '**/*.wasm',
        '**/*.onnx',
        'assets/zh-CN-*.js',
        'assets/id-ID-*.js',
      ]),
    );
  });

  it('caches the on-device upscaler: graphs and wasm on first use, the manifest network first', () => {
    expect(kind('/upscale-api/models/up2x-conservative/graphs/manifest.json')).toBe('deviceManifest');
    expect(kind('/upscale-api/models/up2x-conservative/graphs/23392334bcb0f0df/probe-0.onnx')).toBe('deviceModel');
    expect(kind('/assets/ort-wasm-simd-threaded-DcHrbrbl.wasm')).toBe('deviceModel');
    expect(kind('/upscale-api/models')).toBe('passthrough');
    expect(kind('/upscale-api/models/up2x-conservative/graphs/x/../../upscale/single')).toBe('passthrough');
    expect(CACHE_NAMES.deviceModels.startsWith(USER_CACHE_PREFIX)).toBe(false);
  });

  it('keeps media in a user cache (wiped on logout), and nothing else there', () => {
    expect(CACHE_NAMES.media.startsWith(USER_CACHE_PREFIX)).toBe(true);
    expect(CACHE_NAMES.locales.startsWith(USER_CACHE_PREFIX)).toBe(false);
    expect(CACHE_NAMES.config.startsWith(USER_CACHE_PREFIX)).toBe(false);
  });
});
