// `npm run models:fetch`: download and verify the Real-CUGAN weights once (idempotent).
import { defaultModelsDir, ensureModels } from '../server/upscale/model-store.js';

const started = Date.now();
const dir = await ensureModels(defaultModelsDir(), (msg) => console.log(msg));
console.log(`models ready in ${dir} (${Date.now() - started} ms)`);
