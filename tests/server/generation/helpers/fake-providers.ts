// A small in-test provider: every capability of server/providers/capabilities.ts, with switches a
// test flips to make it slow, wrong, refused or stuck. Its task table lives outside any app, so a
// test can close the app mid-video and let a new app poll the same task.
import sharp from 'sharp';
import {
  ProviderError,
  type Analyser,
  type AnalysisData,
  type Enhancer,
  type GeneratedImage,
  type ImageGenerator,
  type PromptWriter,
  type VideoGenerator,
  type VideoRequest,
} from '../../../../server/providers/capabilities.js';
import type { GenerationProviders } from '../../../../server/modules/generation/engines/generation-providers.js';

export type Fault = 'garbage' | 'quota' | 'safety' | 'rate_limited' | 'unavailable' | 'hang' | 'none';

export interface FakeSwitches {
  analyser: Fault;
  /** Rate-limited answers before a good one (for retry tests). */
  analyserFailuresLeft: number;
  images: Fault;
  /** Delay before each image (ms). */
  imageDelayMs: number;
  prompts: Fault;
  /** Images whose prompt writing fails (by first byte of the image's colour… simpler: by call number). */
  promptFailOnCall: number | undefined;
  video: Fault;
  /** While true, tasks stay "processing". */
  videoGate: boolean;
  enhancer: Fault;
  enhancerGate: boolean;
}

export interface FakeProvider {
  switches: FakeSwitches;
  calls: { analyse: number; images: number; prompts: number; startVideo: number; pollVideo: number; enhance: number };
  /** Requests each startVideo got. */
  videoRequests: VideoRequest[];
  providers(o?: { localPreview?: boolean }): GenerationProviders;
}

export const FAKE_MODEL = 'fake-model-1';

const COLOURS = ['#c0392b', '#2980b9', '#27ae60', '#8e44ad', '#f39c12', '#16a085', '#7f8c8d', '#d35400'];

export async function solidPng(width: number, height: number, colour: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
}

function faultError(fault: Fault): ProviderError | undefined {
  switch (fault) {
    case 'quota':
      return new ProviderError('quota', 'balance exhausted (1008)');
    case 'safety':
      return new ProviderError('safety', 'blocked: IMAGE_SAFETY');
    case 'rate_limited':
      return new ProviderError('rate_limited', '429 RESOURCE_EXHAUSTED', { retryAfterMs: 40 });
    case 'unavailable':
      return new ProviderError('unavailable', '503 UNAVAILABLE');
    default:
      return undefined;
  }
}

const never = () => new Promise<never>(() => {});
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(new ProviderError('cancelled', 'aborted'));
    });
  });

export const ANALYSIS: AnalysisData = {
  summary: 'Red and blue stripes on a cotton twill.',
  colors: [
    { hex: '#c0392b', name: 'red', share: 0.6 },
    { hex: '#2980b9', name: 'blue', share: 0.4 },
  ],
  pattern: { kind: 'stripe', scale: 'medium', orientation: 'vertical', repeat: '12 px' },
  texture: 'fine twill',
  image_prompt: 'A model wearing a red and blue striped twill dress',
  moments_text: 'New in: striped twill for spring.',
  style: 'casual',
};

export function createFakeProvider(): FakeProvider {
  const switches: FakeSwitches = {
    analyser: 'none',
    analyserFailuresLeft: 0,
    images: 'none',
    imageDelayMs: 0,
    prompts: 'none',
    promptFailOnCall: undefined,
    video: 'none',
    videoGate: false,
    enhancer: 'none',
    enhancerGate: false,
  };
  const calls = { analyse: 0, images: 0, prompts: 0, startVideo: 0, pollVideo: 0, enhance: 0 };
  const videoRequests: VideoRequest[] = [];
  const tasks = new Map<string, { polls: number; request: VideoRequest }>();

  const analyser: Analyser = {
    async analyse(input, onText) {
      calls.analyse++;
      if (switches.analyserFailuresLeft > 0) {
        switches.analyserFailuresLeft--;
        throw new ProviderError('rate_limited', '429', { retryAfterMs: 30 });
      }
      if (switches.analyser === 'hang') return never();
      const error = faultError(switches.analyser);
      if (error) throw error;
      const pieces = [`Analysis (${input.language}) of ${input.modelImages.length} model and `, `${input.patternImages.length} pattern images. `, ANALYSIS.summary];
      for (const piece of pieces) {
        onText(piece);
        await sleep(2, input.signal);
      }
      if (switches.analyser === 'garbage') return { text: pieces.join(''), data: { summary: 42 } as unknown as AnalysisData, model: FAKE_MODEL };
      return { text: pieces.join(''), data: ANALYSIS, model: FAKE_MODEL };
    },
  };

  const imageGenerator: ImageGenerator = {
    async generateImages(input, onImage) {
      calls.images++;
      if (switches.images === 'hang') return never();
      const error = faultError(switches.images);
      if (error) throw error;
      const images: GeneratedImage[] = [];
      for (let i = 0; i < input.count; i++) {
        await sleep(switches.imageDelayMs, input.signal);
        const width = input.aspect === 'horizontal' ? 96 : 64;
        const height = input.aspect === 'horizontal' ? 64 : 96;
        const image = { data: await solidPng(width, height, COLOURS[(calls.images + i) % COLOURS.length]!), mimeType: 'image/png', width, height, label: `Candidate ${i + 1}` };
        images.push(image);
        onImage(image, i);
      }
      if (switches.images === 'garbage') return { images: [{ data: Buffer.from('not an image'), mimeType: 'image/png', width: 1, height: 1 }], model: FAKE_MODEL };
      return { images, model: FAKE_MODEL };
    },
  };

  const promptWriter: PromptWriter = {
    async writeVideoPrompts(input) {
      calls.prompts++;
      const error = faultError(switches.prompts);
      if (error) throw error;
      if (switches.promptFailOnCall === calls.prompts) throw new ProviderError('safety', 'blocked');
      if (switches.prompts === 'garbage') return { prompts: 'nonsense' as never, model: FAKE_MODEL };
      return {
        prompts: Array.from({ length: input.count }, (_, i) => ({
          prompt: `${input.userPrompt} — shot ${i + 1}`,
          camera: [(['Push in', 'Pan left', 'Static shot'] as const)[i % 3]!],
          scene: `scene ${i + 1}`,
          mood: `mood ${i + 1}`,
        })),
        model: FAKE_MODEL,
      };
    },
  };

  const videoGenerator: VideoGenerator = {
    pollIntervalMs: 10,
    async startVideo(request) {
      calls.startVideo++;
      videoRequests.push(request);
      const error = faultError(switches.video);
      if (error) throw error;
      const taskId = `task-${calls.startVideo}-${Math.random().toString(36).slice(2, 8)}`;
      tasks.set(taskId, { polls: 0, request });
      return { taskId, model: 'fake-video-1' };
    },
    async pollVideo(taskId) {
      calls.pollVideo++;
      const task = tasks.get(taskId);
      if (!task) return { state: 'failed', error: new ProviderError('invalid_request', `unknown task ${taskId}`) };
      task.polls++;
      if (switches.videoGate || task.polls < 3) return { state: 'processing' };
      return {
        state: 'succeeded',
        fileId: `file-${taskId}`,
        // Not a real MP4: the service stores what the provider hands over.
        video: { data: Buffer.from(`\0\0\0\x18ftypmp42 fake video ${taskId} ${task.request.prompt}`), mimeType: 'video/mp4', width: 720, height: 1280 },
      };
    },
  };

  const enhancer: Enhancer = {
    async enhance(input) {
      calls.enhance++;
      while (switches.enhancerGate) await sleep(5, input.signal);
      const error = faultError(switches.enhancer);
      if (error) throw error;
      const images = await Promise.all(
        input.images.map(async (img) => {
          const data = await sharp(img.data).resize({ width: 32 }).png().toBuffer();
          const meta = await sharp(data).metadata();
          return { data, mimeType: 'image/png', width: meta.width ?? 0, height: meta.height ?? 0 };
        }),
      );
      return { ...(input.text ? { text: input.text.replace(/\s+/g, ' ').trim() } : {}), images, confidence: 0.25, model: 'fake-enhancer-1' };
    },
  };

  return {
    switches,
    calls,
    videoRequests,
    providers: (o = {}) => {
      const slot = <T>(impl: T) => ({ impl, provider: o.localPreview ? 'local' : 'fake', localPreview: !!o.localPreview });
      return {
        analyser: slot(analyser),
        imageGenerator: slot(imageGenerator),
        promptWriter: slot(promptWriter),
        videoGenerator: slot(videoGenerator),
        enhancers: [slot(enhancer)],
      };
    },
  };
}
