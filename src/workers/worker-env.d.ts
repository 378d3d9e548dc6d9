/// <reference lib="webworker" />
// Worker modules run in a DedicatedWorkerGlobalScope, not a window.
declare const self: DedicatedWorkerGlobalScope;
