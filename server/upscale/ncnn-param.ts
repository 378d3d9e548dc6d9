// Parser for ncnn's text graph format (.param).
// Line format: `Type name n_bottoms n_tops bottoms... tops... k=v ...`; a key
// -233xx (negated 23300 + index) holds an array `count,v0,v1,...` for key xx.

export type ParamValue = number | number[];

export interface NcnnLayer {
  type: string;
  name: string;
  bottoms: string[];
  tops: string[];
  params: Map<number, ParamValue>;
}

export interface NcnnGraph {
  layers: NcnnLayer[];
}

export const NCNN_MAGIC = 7767517;

export class NcnnParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NcnnParseError';
  }
}

function parseNumber(s: string, line: number): number {
  const v = Number(s);
  if (!Number.isFinite(v)) throw new NcnnParseError(`line ${line}: not a number: ${s}`);
  return v;
}

export function parseNcnnParam(text: string): NcnnGraph {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  if (lines.length < 2 || Number(lines[0]) !== NCNN_MAGIC) {
    throw new NcnnParseError('bad magic: not an ncnn .param file');
  }
  const counts = lines[1]!.split(/\s+/).map((s) => parseNumber(s, 2));
  const layerCount = counts[0]!;
  if (lines.length - 2 !== layerCount) {
    throw new NcnnParseError(`header says ${layerCount} layers, file has ${lines.length - 2}`);
  }
  const layers: NcnnLayer[] = [];
  for (let i = 2; i < lines.length; i++) {
    const tok = lines[i]!.split(/\s+/);
    if (tok.length < 4) throw new NcnnParseError(`line ${i + 1}: truncated layer`);
    const [type, name, nb, nt] = tok as [string, string, string, string];
    const nBottoms = parseNumber(nb, i + 1);
    const nTops = parseNumber(nt, i + 1);
    let p = 4;
    const bottoms = tok.slice(p, p + nBottoms);
    p += nBottoms;
    const tops = tok.slice(p, p + nTops);
    p += nTops;
    if (bottoms.length !== nBottoms || tops.length !== nTops) {
      throw new NcnnParseError(`line ${i + 1}: missing blob names`);
    }
    const params = new Map<number, ParamValue>();
    for (; p < tok.length; p++) {
      const kv = tok[p]!;
      const eq = kv.indexOf('=');
      if (eq <= 0) throw new NcnnParseError(`line ${i + 1}: bad parameter ${kv}`);
      const key = parseNumber(kv.slice(0, eq), i + 1);
      const value = kv.slice(eq + 1);
      if (key <= -23300) {
        const parts = value.split(',').map((s) => parseNumber(s, i + 1));
        const n = parts[0]!;
        if (parts.length !== n + 1) throw new NcnnParseError(`line ${i + 1}: array length mismatch in ${kv}`);
        params.set(-key - 23300, parts.slice(1));
      } else {
        params.set(key, parseNumber(value, i + 1));
      }
    }
    layers.push({ type, name, bottoms, tops, params });
  }
  return { layers };
}

export function paramInt(layer: NcnnLayer, key: number, def: number): number {
  const v = layer.params.get(key);
  if (v === undefined) return def;
  if (Array.isArray(v)) throw new NcnnParseError(`${layer.name}: key ${key} is an array`);
  return v;
}

export function paramArray(layer: NcnnLayer, key: number, def: number[]): number[] {
  const v = layer.params.get(key);
  if (v === undefined) return def;
  return Array.isArray(v) ? v : [v];
}
