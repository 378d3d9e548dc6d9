// jsdom has no IndexedDB; fake-indexeddb gives a spec-following one for unit tests.
import 'fake-indexeddb/auto';

// Node 25 and newer define localStorage and sessionStorage on globalThis, reading as undefined
// without --localstorage-file; vitest's jsdom environment keeps a global the runtime already has,
// so the pages' storage was missing in every test on Node 26. jsdom's own Storage is put back.
const dom = (globalThis as { jsdom?: { window: Window } }).jsdom;
if (dom) {
  for (const key of ['localStorage', 'sessionStorage'] as const) {
    if (globalThis[key] !== dom.window[key])
      Object.defineProperty(globalThis, key, { value: dom.window[key], configurable: true, writable: true });
  }
}
