// sRGB <-> CIELAB (D65) and CIEDE2000 colour difference. Colour measurements, naming and
// recolouring work in Lab because distances there follow what a designer sees.

export type Rgb = readonly [number, number, number];
export type Lab = readonly [number, number, number];

const D65 = { x: 0.95047, y: 1, z: 1.08883 } as const;

/** 8-bit sRGB value -> linear light, as a table (every conversion of a pixel goes through it). */
const SRGB_TO_LINEAR = new Float64Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  SRGB_TO_LINEAR[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

const LINEAR_STEPS = 8192;
/** Linear light (0..1 in LINEAR_STEPS steps) -> 8-bit sRGB; fine enough for the dark end too. */
const LINEAR_TO_SRGB = new Uint8Array(LINEAR_STEPS + 1);
for (let i = 0; i <= LINEAR_STEPS; i++) {
  const c = i / LINEAR_STEPS;
  const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
  LINEAR_TO_SRGB[i] = Math.round(Math.min(1, Math.max(0, s)) * 255);
}

function labF(t: number): number {
  return t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116;
}

function labFInverse(t: number): number {
  const t3 = t * t * t;
  return t3 > 216 / 24389 ? t3 : (116 * t - 16) / (24389 / 27);
}

function linearToByte(c: number): number {
  if (!(c > 0)) return 0;
  if (c >= 1) return 255;
  return LINEAR_TO_SRGB[Math.round(c * LINEAR_STEPS)] ?? 0;
}

export function rgbToLab(r: number, g: number, b: number): [number, number, number] {
  const lr = SRGB_TO_LINEAR[r & 255] ?? 0;
  const lg = SRGB_TO_LINEAR[g & 255] ?? 0;
  const lb = SRGB_TO_LINEAR[b & 255] ?? 0;
  const x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / D65.x;
  const y = (0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb) / D65.y;
  const z = (0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / D65.z;
  const fx = labF(x);
  const fy = labF(y);
  const fz = labF(z);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** Lab -> 8-bit sRGB, clipped to the gamut. */
export function labToRgb(l: number, a: number, b: number): [number, number, number] {
  const fy = (l + 16) / 116;
  const x = labFInverse(fy + a / 500) * D65.x;
  const y = labFInverse(fy) * D65.y;
  const z = labFInverse(fy - b / 200) * D65.z;
  const lr = 3.2404542 * x - 1.5371385 * y - 0.4985314 * z;
  const lg = -0.969266 * x + 1.8760108 * y + 0.041556 * z;
  const lb = 0.0556434 * x - 0.2040259 * y + 1.0572252 * z;
  return [linearToByte(lr), linearToByte(lg), linearToByte(lb)];
}

/** Interleaved 8-bit RGB -> planar Lab (L, a, b planes of n pixels each). */
export function rgbPixelsToLab(rgb: Uint8Array, pixelCount: number): { l: Float32Array; a: Float32Array; b: Float32Array } {
  const l = new Float32Array(pixelCount);
  const a = new Float32Array(pixelCount);
  const b = new Float32Array(pixelCount);
  for (let i = 0; i < pixelCount; i++) {
    const o = i * 3;
    const lab = rgbToLab(rgb[o] ?? 0, rgb[o + 1] ?? 0, rgb[o + 2] ?? 0);
    l[i] = lab[0];
    a[i] = lab[1];
    b[i] = lab[2];
  }
  return { l, a, b };
}

/** Planar Lab -> interleaved 8-bit RGB. */
export function labPlanesToRgb(l: Float32Array, a: Float32Array, b: Float32Array): Uint8Array {
  const out = new Uint8Array(l.length * 3);
  for (let i = 0; i < l.length; i++) {
    const rgb = labToRgb(l[i] ?? 0, a[i] ?? 0, b[i] ?? 0);
    out[i * 3] = rgb[0];
    out[i * 3 + 1] = rgb[1];
    out[i * 3 + 2] = rgb[2];
  }
  return out;
}

const DEG = Math.PI / 180;

/** CIEDE2000 (Sharma, Wu, Dalal 2005), kL = kC = kH = 1. */
export function deltaE2000(lab1: Lab, lab2: Lab): number {
  const [l1, a1, b1] = lab1;
  const [l2, a2, b2] = lab2;
  const c1 = Math.hypot(a1, b1);
  const c2 = Math.hypot(a2, b2);
  const cMean = (c1 + c2) / 2;
  const cMean7 = cMean ** 7;
  const g = 0.5 * (1 - Math.sqrt(cMean7 / (cMean7 + 25 ** 7)));
  const a1p = (1 + g) * a1;
  const a2p = (1 + g) * a2;
  const c1p = Math.hypot(a1p, b1);
  const c2p = Math.hypot(a2p, b2);
  const hueOf = (b: number, ap: number) => {
    if (b === 0 && ap === 0) return 0;
    const h = Math.atan2(b, ap) / DEG;
    return h < 0 ? h + 360 : h;
  };
  const h1p = hueOf(b1, a1p);
  const h2p = hueOf(b2, a2p);

  const dLp = l2 - l1;
  const dCp = c2p - c1p;
  let dhp = 0;
  if (c1p * c2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(c1p * c2p) * Math.sin((dhp / 2) * DEG);

  const lMean = (l1 + l2) / 2;
  const cpMean = (c1p + c2p) / 2;
  let hpMean = h1p + h2p;
  if (c1p * c2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hpMean = (h1p + h2p) / 2;
    else hpMean = h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2;
  }
  const t =
    1 -
    0.17 * Math.cos((hpMean - 30) * DEG) +
    0.24 * Math.cos(2 * hpMean * DEG) +
    0.32 * Math.cos((3 * hpMean + 6) * DEG) -
    0.2 * Math.cos((4 * hpMean - 63) * DEG);
  const dTheta = 30 * Math.exp(-(((hpMean - 275) / 25) ** 2));
  const cpMean7 = cpMean ** 7;
  const rc = 2 * Math.sqrt(cpMean7 / (cpMean7 + 25 ** 7));
  const lm50 = (lMean - 50) ** 2;
  const sl = 1 + (0.015 * lm50) / Math.sqrt(20 + lm50);
  const sc = 1 + 0.045 * cpMean;
  const sh = 1 + 0.015 * cpMean * t;
  const rt = -Math.sin(2 * dTheta * DEG) * rc;
  return Math.sqrt(
    (dLp / sl) ** 2 + (dCp / sc) ** 2 + (dHp / sh) ** 2 + rt * (dCp / sc) * (dHp / sh),
  );
}

export function rgbToHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;
}

export function hexToRgb(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m?.[1]) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Chroma (colourfulness) of a Lab colour. */
export function chroma(lab: Lab): number {
  return Math.hypot(lab[1], lab[2]);
}
