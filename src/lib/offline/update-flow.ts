// The update flow's decisions, apart from the browser so they can be tested with a fake Workbox:
// a new version waits until the user accepts; running work postpones the switch; we reload only
// after the user asked and the new worker took control. With two tabs open, the other tab may have
// switched workers already: then there is nothing waiting any more, and a Reload reloads at once.
import { runningWork, whenIdle } from './busy-work';

export interface UpdateState {
  /** A new version is installed and waiting. */
  available: boolean;
  /** The user accepted; we wait for running work before switching. */
  applying: boolean;
  registered: boolean;
}

/** What the flow needs of workbox-window's Workbox. */
export interface WorkboxLike {
  addEventListener(type: 'waiting' | 'controlling', listener: () => void): void;
  messageSkipWaiting(): void;
}

/** What it needs of navigator.serviceWorker. */
export interface WorkerContainerLike {
  addEventListener(type: 'controllerchange', listener: () => void): void;
  getRegistration(): Promise<{ waiting: unknown } | undefined>;
}

export function createUpdateFlow(workbox: WorkboxLike, container: WorkerContainerLike, reload: () => void) {
  let state: UpdateState = { available: false, applying: false, registered: false };
  const listeners = new Set<() => void>();
  let reloadRequested = false;
  // Another tab's Reload (or its first install) can hand this page to a new worker.
  let controllerChanged = false;

  function set(patch: Partial<UpdateState>): void {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  }

  workbox.addEventListener('waiting', () => set({ available: true }));
  container.addEventListener('controllerchange', () => {
    controllerChanged = true;
  });
  workbox.addEventListener('controlling', () => {
    // Only the tab whose user clicked reloads; other tabs keep their state and still offer it.
    // Not gated on event.isUpdate: that flag is false in a tab whose first visit installed the
    // worker, and such a tab must still reload into the new version when its user asks.
    if (reloadRequested) reload();
  });

  return {
    getState: (): UpdateState => state,
    markRegistered: () => set({ registered: true }),
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The user accepted the update: switch once no work is running, then reload. */
    async apply(): Promise<void> {
      if (state.applying) return;
      set({ applying: true });
      if (runningWork().length > 0) await whenIdle();
      reloadRequested = true;
      const registration = await container.getRegistration();
      if (registration?.waiting) workbox.messageSkipWaiting();
      // Nothing waits any more and the switch already happened: the new version is in charge.
      else if (controllerChanged) reload();
      // Otherwise the new worker is activating right now: its 'controlling' event reloads.
    },
  };
}

export type UpdateFlow = ReturnType<typeof createUpdateFlow>;
