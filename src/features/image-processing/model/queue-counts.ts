// The batch's counts by state, as the toolbar and the shell's indicator show them.
import type { QueueSnapshot } from '../../../workers/upscale-queue/protocol';
import { isRetrying } from './item-status';

export interface QueueCounts {
  total: number;
  waiting: number;
  processing: number;
  completed: number;
  failed: number;
  cancelled: number;
  interrupted: number;
  /** Items that will still run or need the user (waiting, processing, interrupted). */
  open: number;
  /** Items waiting out a retry delay: they failed on the way and are sent again by themselves. */
  retrying: number;
  /** Items being upscaled on this device right now. */
  onDevice: number;
}

export function countQueue(snapshot: QueueSnapshot): QueueCounts {
  const c: QueueCounts = {
    total: 0,
    waiting: 0,
    processing: 0,
    completed: 0,
    failed: 0,
    cancelled: 0,
    interrupted: 0,
    open: 0,
    retrying: 0,
    onDevice: 0,
  };
  for (const item of snapshot.items) {
    c.total += 1;
    c[item.status] += 1;
    if (isRetrying(item)) c.retrying += 1;
    if (item.status === 'processing' && item.runningLocally) c.onDevice += 1;
  }
  c.open = c.waiting + c.processing + c.interrupted;
  return c;
}
