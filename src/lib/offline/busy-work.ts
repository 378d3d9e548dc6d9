// Work that a reload would break (uploads, upscale batches, generation, outbox replay) registers
// here while it runs; the update flow waits for it and names it to the user.
import { useSyncExternalStore } from 'react';

/** i18n keys under "work.*", e.g. "work.syncing". */
export type WorkReason = string;

const running = new Map<symbol, WorkReason>();
const listeners = new Set<() => void>();
let snapshot: readonly WorkReason[] = [];

function changed(): void {
  snapshot = [...new Set(running.values())];
  for (const listener of listeners) listener();
}

/** Marks work as running; call the returned function when it ends (success, failure or cancel). */
export function beginWork(reason: WorkReason): () => void {
  const token = Symbol(reason);
  running.set(token, reason);
  changed();
  return () => {
    if (running.delete(token)) changed();
  };
}

export function runningWork(): readonly WorkReason[] {
  return snapshot;
}

export function subscribeWork(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Resolves once nothing is running. */
export function whenIdle(): Promise<void> {
  if (running.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = subscribeWork(() => {
      if (running.size === 0) {
        stop();
        resolve();
      }
    });
  });
}

export function useRunningWork(): readonly WorkReason[] {
  return useSyncExternalStore(subscribeWork, runningWork, runningWork);
}
