// In-process publish/subscribe of job progress by topic. A listener that throws is dropped from
// that event only; a job never fails because a stream watching it did.
import type { ProgressListener } from './job-queue.js';

export class ProgressBus {
  private readonly listeners = new Map<string, Set<ProgressListener>>();

  subscribe(topic: string, listener: ProgressListener): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(topic) === set) this.listeners.delete(topic);
    };
  }

  publish(topic: string, event: Record<string, unknown>): void {
    for (const listener of [...(this.listeners.get(topic) ?? [])]) {
      try {
        listener(event);
      } catch {
        // A broken watcher must not stop the job or the other watchers.
      }
    }
  }
}
