// Who holds a job's lease: "<installation>:<pid>:<random>". The installation part is stable across
// restarts of one server (the same host and data directory), so a server that starts can tell the
// leases its own earlier run left behind (after a crash or kill -9) and take them back at once
// instead of waiting for them to expire. It never takes a lease whose holder may still be alive:
// another installation's (another host or data directory, as replicas in team mode are), a
// process on this host that still runs, or another runner in this process.
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { processAlive } from '../process-alive.js';

/** A short stable id of this host and data directory. */
export function installationId(dataDir: string, host: string = hostname()): string {
  return createHash('sha256').update(`${host}\0${path.resolve(dataDir)}`).digest('hex').slice(0, 16);
}

/** Owners of runners alive in this process. */
const liveInThisProcess = new Set<string>();

export function newLeaseOwner(installation: string | undefined): string {
  return `${installation ?? 'anonymous'}:${process.pid}:${randomBytes(6).toString('hex')}`;
}

/** A runner of this process runs (true) or has stopped and handed its leases back (false). */
export function markLeaseOwnerLive(owner: string, live: boolean): void {
  if (live) liveInThisProcess.add(owner);
  else liveInThisProcess.delete(owner);
}

/** The LIKE pattern of the owners of an installation (the id is hex: nothing to escape). */
export function ownersOf(installation: string): string {
  return `${installation}:%`;
}

/** True when `owner` was this installation's and its process is gone (an earlier run of this server). */
export function heldByEarlierRun(owner: string, installation: string, isAlive: (pid: number) => boolean = processAlive): boolean {
  const [inst, pidText, nonce] = owner.split(':');
  if (inst !== installation || !pidText || !nonce) return false;
  if (liveInThisProcess.has(owner)) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // The same pid as ours but not one of our runners: an earlier run (a container's pid 1 again).
  if (pid === process.pid) return true;
  return !isAlive(pid);
}
