// The start-up check of the workflows against the server's GET /object_info: every node type a
// workflow uses must be installed, and every model file (or other choice) it names must be among
// those the node offers there. What is missing is named, so the log and the settings page say
// "install ImageStitch" or "put wan2.2_vae.safetensors in models/" instead of the first request
// failing. The images the workflow loads are ours to upload and are not checked.
import type { ObjectInfo } from './comfyui-client.js';
import type { Workflow } from './comfyui-workflow.js';

const IMAGE_ROLES = ['image', 'image 2', 'image 3', 'first frame', 'last frame'] as const;

/** The choices ComfyUI offers for an input: [[...options], {...}] or ["COMBO", {options: [...]}]. */
function optionsOf(spec: unknown): unknown[] | undefined {
  if (!Array.isArray(spec)) return undefined;
  if (Array.isArray(spec[0])) return spec[0] as unknown[];
  if (spec[0] === 'COMBO') {
    const options = (spec[1] as { options?: unknown } | undefined)?.options;
    return Array.isArray(options) ? options : [];
  }
  return undefined;
}

/** Problems of one workflow on this server, each a sentence naming the node type or file. */
export function workflowProblems(workflow: Workflow, info: ObjectInfo): string[] {
  const problems: string[] = [];
  const missingTypes = new Set<string>();
  const uploaded = new Set(IMAGE_ROLES.flatMap((role) => workflow.roles.get(role) ?? []));
  for (const [id, node] of Object.entries(workflow.nodes)) {
    const type = info[node.class_type];
    if (!type) {
      missingTypes.add(node.class_type);
      continue;
    }
    for (const [name, value] of Object.entries(node.inputs)) {
      if (typeof value !== 'string' || (uploaded.has(id) && name === 'image')) continue;
      const options = optionsOf(type.input?.required?.[name] ?? type.input?.optional?.[name]);
      if (!options || options.includes(value)) continue;
      const model = /\.(safetensors|ckpt|pt|pth|bin|gguf|sft|onnx)$/i.test(value);
      problems.push(model ? `model file ${value} is missing (${node.class_type}.${name}, node ${id})` : `${node.class_type}.${name} has no choice "${value}" (node ${id})`);
    }
  }
  if (missingTypes.size > 0) problems.unshift(`node types not installed: ${[...missingTypes].join(', ')}`);
  return problems;
}
