// The providers' own setup checks (ComfyUI: its workflows against the server's node types and
// models), run once the server is ready and again when the settings page asks after a failed one.
// What they find is logged, naming what is missing, and kept for the settings page.
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderSetupCheck } from '../../../providers/capabilities.js';

export interface EngineChecks {
  /** Runs every check (at most one round at a time) and answers the findings. */
  run(): Promise<ProviderSetupCheck[]>;
  /** The last findings; a check that could not reach its provider is run again first. */
  latest(): Promise<ProviderSetupCheck[]>;
}

export function createEngineChecks(checks: (() => Promise<ProviderSetupCheck>)[], log: FastifyBaseLogger): EngineChecks {
  let results: ProviderSetupCheck[] | undefined;
  let running: Promise<ProviderSetupCheck[]> | undefined;
  const run = () => {
    running ??= Promise.all(checks.map((check) => check()))
      .then((found) => {
        results = found;
        for (const result of found) {
          if (result.problems.length === 0) log.info({ provider: result.provider }, `${result.provider}: setup checked, nothing missing`);
          else log.warn({ provider: result.provider, problems: result.problems }, `${result.provider}: setup problems: ${result.problems.join('; ')}`);
        }
        return found;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    run,
    async latest() {
      if (!results || results.some((r) => !r.reachable)) return run();
      return results;
    },
  };
}
