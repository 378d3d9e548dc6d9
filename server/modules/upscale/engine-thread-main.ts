// The engine thread: one UpscaleEngine (its sessions and model cache) answering the service's
// messages. Jobs queue inside the engine, as they would on the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { UpscaleEngine } from '../../upscale/engine.js';
import { UpscaleError } from '../../upscale/errors.js';
import { freeNow } from '../../upscale/free-now.js';
import type { EngineThreadOptions, FromEngine, ThreadError, ToEngine } from './engine-thread-protocol.js';

const port = parentPort;
if (!port) throw new Error('engine-thread-main runs as a worker thread');
const options = workerData as EngineThreadOptions;
const engine = new UpscaleEngine(options);
const running = new Map<number, AbortController>();

const post = (message: FromEngine, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

function asThreadError(error: unknown): ThreadError {
  if (error instanceof UpscaleError) return { code: error.code, message: error.message };
  return { code: 'engine_error', message: error instanceof Error ? error.message : String(error) };
}

port.on('message', (message: ToEngine) => {
  switch (message.type) {
    case 'abort':
      running.get(message.id)?.abort();
      return;
    case 'close':
      // Terminating this thread while onnxruntime-node computes a tile aborts the whole process
      // ("terminate called after throwing an instance of 'Napi::Error'"): the run's completion
      // lands in a torn-down environment. So the jobs stop between tiles, the sessions are released,
      // and the thread leaves only then.
      for (const controller of running.values()) controller.abort();
      void engine
        .close()
        .catch(() => undefined)
        .finally(() => process.exit(0));
      return;
    case 'upscale': {
      const controller = new AbortController();
      running.set(message.id, controller);
      const { id } = message;
      engine
        .upscale(Buffer.from(message.input.buffer, message.input.byteOffset, message.input.byteLength), {
          ...message.params,
          signal: controller.signal,
          onProgress: (fraction) => post({ type: 'progress', id, fraction }),
        })
        .then(
          (result) => {
            // Copied into memory of its own before it is transferred: the encoder's Buffer may be a
            // slice of a pool, or memory the native encoder allocated, which Node 22 and newer refuse
            // to transfer ("Cannot transfer object of unsupported type"). One copy of the encoded
            // file, small beside the upscale that made it.
            const own = new Uint8Array(result.data);
            // The encoder's own is let go at once (179 MB at 4 MP 4x): this thread's heap is small
            // and seldom collected, so left to the collector it was still held in the next job.
            freeNow(result.data);
            const { tiles: _tiles, strategy: _strategy, ...rest } = result;
            post({ type: 'result', id, result: { ...rest, data: own } }, [own.buffer as ArrayBuffer]);
          },
          (error: unknown) => post({ type: 'error', id, error: asThreadError(error) }),
        )
        .finally(() => running.delete(id));
      return;
    }
  }
});
