// The workshop on ComfyUI: each image goes through the enhance workflow (by default the same
// reference-guided edit as the candidates) with the workshop's instructions as its prompt, in its
// own shape. ComfyUI makes pictures, not words: a text item is handed to the enhancer given for
// text (the built-in engine's, when the server wires it in), and refused without one.
import { ProviderError, type EnhanceInput, type EnhanceResult, type Enhancer, type GeneratedImage } from '../capabilities.js';
import { IMAGE_ONLY_CONFIDENCE, requireEnhanceInput } from '../shared/enhance-input.js';
import { enhanceImagePrompt } from '../shared/instructions.js';
import { PROVIDER } from './comfyui-errors.js';
import { editOneImage, workflowName, type ComfyImageContext } from './comfyui-images.js';
import type { Workflow } from './comfyui-workflow.js';

export function createComfyEnhancer(context: ComfyImageContext, workflow: Workflow, textEnhancer?: Enhancer): Enhancer {
  const imageModel = `comfyui:${workflowName(workflow)}`;
  return {
    async enhance(input: EnhanceInput): Promise<EnhanceResult> {
      const { wantsText, wantsImages } = requireEnhanceInput(input, PROVIDER);
      if (wantsText && !textEnhancer) throw new ProviderError('invalid_request', 'ComfyUI makes images only; this text item has no text engine', { provider: PROVIDER });
      const text = wantsText && textEnhancer ? await textEnhancer.enhance({ ...input, type: 'text', images: [] }) : undefined;
      const images: GeneratedImage[] = [];
      if (wantsImages) {
        for (const source of input.images) {
          images.push(await editOneImage(context, workflow, { source, prompt: enhanceImagePrompt(input), aspect: 'auto', signal: input.signal }));
        }
      }
      return {
        ...(text?.text !== undefined ? { text: text.text } : {}),
        images,
        confidence: text ? (wantsImages ? Math.min(text.confidence, IMAGE_ONLY_CONFIDENCE) : text.confidence) : IMAGE_ONLY_CONFIDENCE,
        model: [text?.model, wantsImages ? imageModel : undefined].filter(Boolean).join(' + '),
      };
    },
  };
}
