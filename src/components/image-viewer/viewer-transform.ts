// Pure zoom / pan / rotate arithmetic for the image viewer, the compare slider and the variant
// preview. Points are in CSS pixels relative to the centre of the viewport box; the image is drawn
// centred, then moved by (x, y), rotated and scaled about its own centre.

export interface ViewTransform {
  scale: number;
  /** Degrees, a multiple of 90; not wrapped, so CSS turns the short way round. */
  rotation: number;
  x: number;
  y: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface ZoomLimits {
  min: number;
  max: number;
}

export const IDENTITY: ViewTransform = { scale: 1, rotation: 0, x: 0, y: 0 };
export const VIEWER_LIMITS: ZoomLimits = { min: 0.25, max: 8 };
/** Step of the zoom buttons and +/- keys. */
export const ZOOM_STEP = 1.25;

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** 0, 90, 180 or 270. */
export function normalizedRotation(rotation: number): number {
  return (((Math.round(rotation / 90) * 90) % 360) + 360) % 360;
}

/**
 * Zooms by `factor` keeping the content under `point` where it is. The image's centre sits at
 * (x, y); scaling about `point` moves it to point + k·(centre − point). Rotation commutes with a
 * uniform scale, so it plays no part.
 */
export function zoomAt(t: ViewTransform, factor: number, point: Point, limits: ZoomLimits): ViewTransform {
  const scale = clamp(t.scale * factor, limits.min, limits.max);
  const k = scale / t.scale;
  return { ...t, scale, x: point.x + (t.x - point.x) * k, y: point.y + (t.y - point.y) * k };
}

export function zoomTo(t: ViewTransform, scale: number, limits: ZoomLimits): ViewTransform {
  return zoomAt(t, scale / t.scale, { x: 0, y: 0 }, limits);
}

export function panBy(t: ViewTransform, dx: number, dy: number): ViewTransform {
  return { ...t, x: t.x + dx, y: t.y + dy };
}

export function rotateBy(t: ViewTransform, quarterTurns: number): ViewTransform {
  return { ...t, rotation: t.rotation + quarterTurns * 90 };
}

/** Wheel delta to a zoom factor: one notch (about 100 px) is a ×1.2 step, smooth for trackpads. */
export function wheelFactor(deltaY: number, deltaMode = 0): number {
  const pixels = deltaMode === 1 ? deltaY * 33 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp((-clamp(pixels, -300, 300) * Math.log(1.2)) / 100);
}

export interface PinchStart {
  transform: ViewTransform;
  a: Point;
  b: Point;
}

function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function midpoint(a: Point, b: Point): Point {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

/** Two fingers: scale by the change in their distance about their first midpoint, pan with it. */
export function pinch(start: PinchStart, a: Point, b: Point, limits: ZoomLimits): ViewTransform {
  const before = distance(start.a, start.b);
  const factor = before > 0 ? distance(a, b) / before : 1;
  const m0 = midpoint(start.a, start.b);
  const m1 = midpoint(a, b);
  const zoomed = zoomAt(start.transform, factor, m0, limits);
  return panBy(zoomed, m1.x - m0.x, m1.y - m0.y);
}

/** The size the image takes at scale 1: fitted inside the box, never enlarged, rotation included. */
export function fittedSize(image: Size, box: Size, rotation: number): Size {
  if (image.width <= 0 || image.height <= 0) return { width: 0, height: 0 };
  const sideways = normalizedRotation(rotation) % 180 !== 0;
  const w = sideways ? image.height : image.width;
  const h = sideways ? image.width : image.height;
  const fit = Math.min(1, box.width / w, box.height / h);
  return { width: image.width * fit, height: image.height * fit };
}

/**
 * Keeps at least `margin` pixels of the image inside the box so it cannot be flung out of sight.
 * `base` is the fitted size at scale 1 before rotation.
 */
export function clampPan(t: ViewTransform, base: Size, box: Size, margin = 48): ViewTransform {
  const sideways = normalizedRotation(t.rotation) % 180 !== 0;
  const w = (sideways ? base.height : base.width) * t.scale;
  const h = (sideways ? base.width : base.height) * t.scale;
  const limitX = Math.max(0, (box.width + w) / 2 - Math.min(margin, w / 2));
  const limitY = Math.max(0, (box.height + h) / 2 - Math.min(margin, h / 2));
  return { ...t, x: clamp(t.x, -limitX, limitX), y: clamp(t.y, -limitY, limitY) };
}

/** Zoom-only views (compare slider, variant tiles): the image fills the box, so panning stops at its edges. */
export function clampPanToCover(t: ViewTransform, box: Size): ViewTransform {
  const limitX = Math.max(0, (box.width * t.scale - box.width) / 2);
  const limitY = Math.max(0, (box.height * t.scale - box.height) / 2);
  return { ...t, x: clamp(t.x, -limitX, limitX), y: clamp(t.y, -limitY, limitY) };
}

export function toCssTransform(t: ViewTransform): string {
  return `translate(${t.x.toFixed(2)}px, ${t.y.toFixed(2)}px) rotate(${t.rotation}deg) scale(${t.scale.toFixed(4)})`;
}
