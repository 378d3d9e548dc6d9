// Start-up work that the first screen does not need (the service worker, a visitor's offline
// data) waits until that screen is on the glass and the main thread is idle, so it neither delays
// the first render nor competes with its requests.

let rendered: () => void = () => {};
const firstRender = new Promise<void>((resolve) => (rendered = resolve));

/** Called once the app's first screen is committed (App's first effect). */
export function markFirstRender(): void {
  rendered();
}

/** Runs `work` after the first render, when the browser is next idle. */
export function afterFirstRender(work: () => void): void {
  void firstRender.then(() => {
    if ('requestIdleCallback' in window) requestIdleCallback(work, { timeout: 2000 });
    else setTimeout(work, 50);
  });
}
