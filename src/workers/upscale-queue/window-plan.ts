// Which waiting items start next. The server takes a sliding window of at most `max` requests in
// queue order; an item waiting out its retry delay lets the ones behind it go first. This device
// takes one item at a time: the ones sent "on this device", and any waiting one while the service
// cannot be reached.
import type { QueueItem } from './protocol';

/** The requests running now (a Map of controllers or a Set of ids). */
export interface Running {
  readonly size: number;
  has(id: string): boolean;
}

export interface ServerWindow {
  /** In queue order; the window is full after them. */
  start: QueueItem[];
  /** When the earliest skipped retry delay ends (Infinity: none), so the window wakes then. */
  wakeAt: number;
}

export function planServerWindow(
  items: readonly QueueItem[],
  facts: { running: Running; max: number; now: number; deviceTakesOnDevice: boolean },
): ServerWindow {
  const { running, max, now, deviceTakesOnDevice } = facts;
  const start: QueueItem[] = [];
  let wakeAt = Infinity;
  for (const item of items) {
    if (running.size + start.length >= max) break;
    if (item.status !== 'waiting' || running.has(item.id)) continue;
    if (item.params.onDevice && deviceTakesOnDevice) continue;
    if (item.retry && item.retry.nextAttemptAt > now) {
      wakeAt = Math.min(wakeAt, item.retry.nextAttemptAt);
      continue;
    }
    start.push(item);
  }
  return { start, wakeAt };
}

/**
 * The next item for this device. `offline`: the service cannot be reached and the device may
 * stand in. An item that chose the device waits out its own retry delay; a fallback does not wait.
 */
export function nextForDevice(
  items: readonly QueueItem[],
  facts: { running: Running; offline: boolean; now: number },
): QueueItem | undefined {
  const { running, offline, now } = facts;
  return items.find(
    (item) =>
      item.status === 'waiting' &&
      !running.has(item.id) &&
      (item.params.onDevice === true || offline) &&
      (offline || !item.retry || item.retry.nextAttemptAt <= now),
  );
}
