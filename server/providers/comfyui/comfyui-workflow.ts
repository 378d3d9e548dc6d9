// ComfyUI workflows as files in API format ({nodeId: {class_type, inputs, _meta: {title}}}, what
// ComfyUI's "Export (API)" writes). Loom Studio fills a workflow's inputs by node title, so a team
// can drop in its own export and mark the nodes by the same titles (case does not matter; one node
// may carry several, comma-separated, e.g. "size, frames"):
//   image, image 2, image 3   LoadImage nodes for the reference images (images and workshop)
//   first frame, last frame   LoadImage nodes for a video's frames
//   prompt                    the node whose text input takes the prompt (CLIPTextEncode.text, …)
//   seed                      the node whose seed / noise_seed input takes a fresh seed
//   size                      the node whose width and height take the output size
//   frames                    the node whose length / frames input takes the frame count
//   fps                       the node whose fps / frame_rate input says the frame rate (read, and kept)
//   output                    the node whose saved images or video are the result
// A workflow without a title it needs, or whose titled node lacks the input, is refused at start.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type WorkflowKind = 'images' | 'video' | 'video-first-last-frame';

export type Role = 'image' | 'image 2' | 'image 3' | 'first frame' | 'last frame' | 'prompt' | 'seed' | 'size' | 'frames' | 'fps' | 'output';
const ROLES: readonly Role[] = ['image', 'image 2', 'image 3', 'first frame', 'last frame', 'prompt', 'seed', 'size', 'frames', 'fps', 'output'];

export const REQUIRED_ROLES: Record<WorkflowKind, readonly Role[]> = {
  images: ['image', 'prompt', 'output'],
  video: ['first frame', 'prompt', 'output'],
  'video-first-last-frame': ['first frame', 'last frame', 'prompt', 'output'],
};

/** The input names each role may set, first match wins. */
const ROLE_INPUTS: Record<Role, readonly string[]> = {
  image: ['image'],
  'image 2': ['image'],
  'image 3': ['image'],
  'first frame': ['image'],
  'last frame': ['image'],
  prompt: ['text', 'prompt', 'text_g', 'value', 'string'],
  seed: ['seed', 'noise_seed'],
  size: ['width'],
  frames: ['length', 'frames', 'num_frames', 'frame_count', 'video_length'],
  fps: ['fps', 'frame_rate'],
  output: [],
};

export interface WorkflowNode {
  class_type: string;
  inputs: Record<string, unknown>;
  _meta?: { title?: string };
}

export type ApiWorkflow = Record<string, WorkflowNode>;

/** The shipped workflows, one per capability (see README: which models they expect). */
export const SHIPPED_WORKFLOWS: Record<WorkflowKind, string> = {
  images: fileURLToPath(new URL('./workflows/image-edit.json', import.meta.url)),
  video: fileURLToPath(new URL('./workflows/video.json', import.meta.url)),
  'video-first-last-frame': fileURLToPath(new URL('./workflows/video-first-last-frame.json', import.meta.url)),
};

export interface Workflow {
  kind: WorkflowKind;
  /** The file it came from (for messages). */
  file: string;
  nodes: ApiWorkflow;
  /** Role → node ids carrying it. */
  roles: Map<Role, string[]>;
}

export class WorkflowError extends Error {
  override readonly name = 'WorkflowError';
}

/** Reads and checks a workflow file; throws WorkflowError naming what is wrong. */
export function loadWorkflow(file: string, kind: WorkflowKind): Workflow {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new WorkflowError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WorkflowError(`${file} is not JSON`);
  }
  return parseWorkflow(parsed, file, kind);
}

export function parseWorkflow(parsed: unknown, file: string, kind: WorkflowKind): Workflow {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new WorkflowError(`${file} is not a workflow in API format`);
  if ('nodes' in parsed && 'links' in parsed) {
    throw new WorkflowError(`${file} is a UI workflow; export it with "Export (API)" in ComfyUI`);
  }
  const nodes: ApiWorkflow = {};
  for (const [id, value] of Object.entries(parsed)) {
    const node = value as Partial<WorkflowNode> | null;
    if (typeof node !== 'object' || node === null || typeof node.class_type !== 'string' || typeof node.inputs !== 'object' || node.inputs === null) {
      throw new WorkflowError(`${file}: node ${id} has no class_type or inputs; export the workflow with "Export (API)"`);
    }
    nodes[id] = { class_type: node.class_type, inputs: { ...node.inputs }, ...(node._meta ? { _meta: { ...node._meta } } : {}) };
  }
  const roles = new Map<Role, string[]>();
  for (const [id, node] of Object.entries(nodes)) {
    for (const part of (node._meta?.title ?? '').split(',')) {
      const role = ROLES.find((r) => r === part.trim().toLowerCase());
      if (role) roles.set(role, [...(roles.get(role) ?? []), id]);
    }
  }
  const problems: string[] = [];
  const missing = REQUIRED_ROLES[kind].filter((role) => !roles.has(role));
  if (missing.length > 0) problems.push(`no node titled ${missing.map((r) => `"${r}"`).join(', ')}`);
  for (const [role, ids] of roles) {
    const names = ROLE_INPUTS[role];
    if (names.length === 0) continue;
    for (const id of ids) {
      const inputs = nodes[id]!.inputs;
      if (!names.some((name) => name in inputs)) problems.push(`node ${id} titled "${role}" (${nodes[id]!.class_type}) has no ${names.join(' or ')} input`);
      if (role === 'size' && !('height' in inputs)) problems.push(`node ${id} titled "size" (${nodes[id]!.class_type}) has no height input`);
    }
  }
  if (problems.length > 0) throw new WorkflowError(`${file}: ${problems.join('; ')}`);
  return { kind, file, nodes, roles };
}

/** The input a role sets on a node: the first of its names the node has as a plain value. */
function inputName(node: WorkflowNode, role: Role): string | undefined {
  return ROLE_INPUTS[role].find((name) => name in node.inputs && !isLink(node.inputs[name])) ?? ROLE_INPUTS[role].find((name) => name in node.inputs);
}

const isLink = (value: unknown): boolean => Array.isArray(value) && value.length === 2 && typeof value[0] === 'string';

/** The number a role's node holds (the workflow's own fps or frame count), when it is a plain number. */
export function readNumber(workflow: Workflow, role: Role): number | undefined {
  const id = workflow.roles.get(role)?.[0];
  if (!id) return undefined;
  const node = workflow.nodes[id]!;
  const name = inputName(node, role);
  const value = name ? node.inputs[name] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export interface Fill {
  /** Uploaded file names (as LoadImage takes them) per image role. */
  images: Partial<Record<'image' | 'image 2' | 'image 3' | 'first frame' | 'last frame', string>>;
  prompt: string;
  seed: number;
  size?: { width: number; height: number };
  frames?: number;
}

/** A copy of the workflow with Loom Studio's inputs set; optional roles the file lacks are skipped. */
export function fillWorkflow(workflow: Workflow, fill: Fill): ApiWorkflow {
  const nodes: ApiWorkflow = structuredClone(workflow.nodes);
  const set = (role: Role, value: (node: WorkflowNode, name: string) => void) => {
    for (const id of workflow.roles.get(role) ?? []) {
      const node = nodes[id]!;
      const name = inputName(node, role);
      if (name) value(node, name);
    }
  };
  const firstImage = fill.images.image ?? fill.images['first frame'];
  for (const role of ['image', 'image 2', 'image 3', 'first frame', 'last frame'] as const) {
    // A reference slot the request has no image for gets the first image, so its links still hold.
    const name = fill.images[role] ?? (role.startsWith('image') ? firstImage : undefined);
    if (name) set(role, (node, input) => (node.inputs[input] = name));
  }
  set('prompt', (node, input) => (node.inputs[input] = fill.prompt));
  set('seed', (node, input) => (node.inputs[input] = fill.seed));
  if (fill.size) {
    const { width, height } = fill.size;
    set('size', (node) => {
      node.inputs.width = width;
      node.inputs.height = height;
    });
  }
  if (fill.frames !== undefined) {
    const frames = fill.frames;
    set('frames', (node, input) => (node.inputs[input] = frames));
  }
  return nodes;
}

/** The node ids whose outputs are the result. */
export function outputNodes(workflow: Workflow): string[] {
  return workflow.roles.get('output') ?? [];
}

/** Nodes that sample (their progress is steps): KSampler, KSamplerAdvanced, SamplerCustom… */
export function samplerNodes(workflow: Workflow): string[] {
  return Object.entries(workflow.nodes)
    .filter(([, node]) => /sampler/i.test(node.class_type) && !/^(KSamplerSelect|SamplerSelect)/i.test(node.class_type))
    .map(([id]) => id);
}
