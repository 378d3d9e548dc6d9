// Features that keep user data (IndexedDB history, queued uploads, the query cache) register a
// cleanup here; logout runs them all so a shared tablet never shows the last user's work.
type Cleanup = () => void | Promise<void>;

const cleanups = new Set<Cleanup>();

export function registerLogoutCleanup(cleanup: Cleanup): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** Runs every cleanup; one failing must not keep the others from running. */
export async function runLogoutCleanups(): Promise<void> {
  await Promise.allSettled([...cleanups].map(async (cleanup) => cleanup()));
}
