// The update flow with a fake Workbox and a fake service worker container: what a Reload does in
// the tab that accepts it, in a second tab after the first already switched workers, and while
// work is running.
import { describe, expect, it } from 'vitest';
import { beginWork, runningWork } from '../../../src/lib/offline/busy-work';
import {
  createUpdateFlow,
  type WorkboxLike,
  type WorkerContainerLike,
} from '../../../src/lib/offline/update-flow';

function fakeBrowser() {
  const wbListeners = new Map<string, (() => void)[]>();
  const containerListeners: (() => void)[] = [];
  const log: string[] = [];
  let waiting: object | null = null;
  const workbox: WorkboxLike = {
    addEventListener(type, listener) {
      wbListeners.set(type, [...(wbListeners.get(type) ?? []), listener]);
    },
    messageSkipWaiting() {
      log.push('skipWaiting');
    },
  };
  const container: WorkerContainerLike = {
    addEventListener(_type, listener) {
      containerListeners.push(listener);
    },
    getRegistration: async () => ({ waiting }),
  };
  const flow = createUpdateFlow(workbox, container, () => log.push('reload'));
  return {
    flow,
    log,
    /** A new version installed and is waiting. */
    newVersionWaits() {
      waiting = {};
      for (const l of wbListeners.get('waiting') ?? []) l();
    },
    /** Some tab sent SKIP_WAITING: the worker activates and claims every tab. */
    newVersionTakesOver() {
      waiting = null;
      for (const l of containerListeners) l();
      for (const l of wbListeners.get('controlling') ?? []) l();
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('update flow', () => {
  it('in the accepting tab: asks the waiting worker to take over, reloads only once it controls', async () => {
    const tab = fakeBrowser();
    tab.newVersionWaits();
    expect(tab.flow.getState().available).toBe(true);
    await tab.flow.apply();
    expect(tab.log).toEqual(['skipWaiting']);
    tab.newVersionTakesOver();
    expect(tab.log).toEqual(['skipWaiting', 'reload']);
  });

  it('a second tab never reloads by itself, and its Reload works after the first tab switched', async () => {
    const tabB = fakeBrowser();
    tabB.newVersionWaits();
    // Tab A accepted: the new worker took over tab B too, and nothing waits any more.
    tabB.newVersionTakesOver();
    expect(tabB.log).toEqual([]);
    expect(tabB.flow.getState().available).toBe(true);
    await tabB.flow.apply();
    expect(tabB.log).toEqual(['reload']);
  });

  it('the reload waits while work runs and says why', async () => {
    const tab = fakeBrowser();
    tab.newVersionWaits();
    const done = beginWork('work.syncing');
    const applying = tab.flow.apply();
    await tick();
    // Accepted, but held back: the state says so and names the work (the toast shows it).
    expect(tab.flow.getState()).toMatchObject({ available: true, applying: true });
    expect(runningWork()).toEqual(['work.syncing']);
    expect(tab.log).toEqual([]);
    done();
    await applying;
    expect(tab.log).toEqual(['skipWaiting']);
    tab.newVersionTakesOver();
    expect(tab.log).toEqual(['skipWaiting', 'reload']);
  });

  it('a second Reload click while applying does nothing more', async () => {
    const tab = fakeBrowser();
    tab.newVersionWaits();
    await Promise.all([tab.flow.apply(), tab.flow.apply()]);
    expect(tab.log).toEqual(['skipWaiting']);
  });
});
