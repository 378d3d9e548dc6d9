// The engine thread's entry point. A worker thread does not inherit the TypeScript loader of the
// process that starts it (nor a test runner's), so it registers tsx for itself.
import { tsImport } from 'tsx/esm/api';

await tsImport('./engine-thread-main.ts', import.meta.url);
