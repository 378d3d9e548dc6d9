// API base URLs come from /config.json at run time, so one build serves production, the test
// hosts and the companion server alike.
export interface RuntimeConfig {
  api: { main: string; image: string; upscale: string; third: string };
  /** Where the server speaks tus: its endpoint, shaped like the api URLs. Absent: files go up in the multipart calls. */
  uploads?: { tus: string };
  version: string;
}

let pending: Promise<RuntimeConfig> | null = null;

function isRuntimeConfig(value: unknown): value is RuntimeConfig {
  const api = (value as { api?: Record<string, unknown> } | null)?.api;
  return !!api && ['main', 'image', 'upscale', 'third'].every((key) => typeof api[key] === 'string');
}

/** The tus endpoint as an absolute URL, or undefined where the server has none (or names it wrongly). */
export function tusEndpoint(config: RuntimeConfig, base: string): string | undefined {
  const tus = config.uploads?.tus;
  if (typeof tus !== 'string' || tus === '') return undefined;
  try {
    return new URL(tus, base).href;
  } catch {
    return undefined;
  }
}

/** Fetched once per page; a failed fetch is retried by the next caller instead of cached. */
export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  pending ??= fetch('/config.json', { cache: 'no-cache', credentials: 'omit' })
    .then(async (response) => {
      if (!response.ok) throw new Error(`config.json answered ${response.status}`);
      const body: unknown = await response.json();
      if (!isRuntimeConfig(body)) throw new Error('config.json lacks api base URLs');
      return body;
    })
    .catch((error: unknown) => {
      pending = null;
      throw error;
    });
  return pending;
}

/** Sets the configuration directly (unit tests, or an embedding page that already knows it). */
export function primeRuntimeConfig(config: RuntimeConfig): void {
  pending = Promise.resolve(config);
}
