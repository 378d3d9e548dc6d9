/// <reference lib="webworker" />
// Worker modules run in a DedicatedWorkerGlobalScope, not a window.
declare const self: DedicatedWorkerGlobalScope;

// The DOM's StorageManager.persist, which lib/db/quota.ts (shared with the queue worker for its
// quota recovery) names. Workers lack it at run time; quota.ts checks before calling it.
interface StorageManager {
  persist(): Promise<boolean>;
}
