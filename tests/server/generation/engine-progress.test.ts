// The sentence a person reads for a self-hosted engine's progress: a prompt that runs next is
// "next in the queue", never "0 ahead".
import { describe, expect, it } from 'vitest';
import { engineProgressMessage } from '../../../server/modules/generation/engines/engine-progress.js';
import { SUPPORTED_LANGUAGES } from '../../../shared/i18n/languages.js';

describe('engine progress message', () => {
  it('says the prompt is next instead of "0 ahead", in every language', () => {
    expect(engineProgressMessage({ queueAhead: 0 }, 'en-US')).toBe('Waiting for the GPU: next in the queue');
    for (const locale of SUPPORTED_LANGUAGES) {
      const next = engineProgressMessage({ queueAhead: 0 }, locale)!;
      expect(next).not.toMatch(/\b0\b/);
      expect(next).not.toBe(engineProgressMessage({ queueAhead: 1 }, locale));
    }
  });

  it('counts the prompts ahead otherwise', () => {
    expect(engineProgressMessage({ queueAhead: 2 }, 'en-US')).toBe('Waiting for the GPU: 2 ahead in the queue');
  });
});
