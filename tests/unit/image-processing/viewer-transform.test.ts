import { describe, expect, it } from 'vitest';
import {
  IDENTITY,
  VIEWER_LIMITS,
  clampPan,
  clampPanToCover,
  fittedSize,
  normalizedRotation,
  panBy,
  pinch,
  rotateBy,
  toCssTransform,
  wheelFactor,
  zoomAt,
  type Point,
  type ViewTransform,
} from '../../../src/components/image-viewer/viewer-transform';

/** Where a point of the image (relative to its centre, unscaled, unrotated) lands on screen. */
function project(t: ViewTransform, p: Point): Point {
  const r = (t.rotation * Math.PI) / 180;
  const x = p.x * t.scale;
  const y = p.y * t.scale;
  return { x: t.x + x * Math.cos(r) - y * Math.sin(r), y: t.y + x * Math.sin(r) + y * Math.cos(r) };
}

/** The inverse: which image point is under a screen point. */
function unproject(t: ViewTransform, s: Point): Point {
  const r = (-t.rotation * Math.PI) / 180;
  const x = s.x - t.x;
  const y = s.y - t.y;
  return {
    x: (x * Math.cos(r) - y * Math.sin(r)) / t.scale,
    y: (x * Math.sin(r) + y * Math.cos(r)) / t.scale,
  };
}

describe('viewer transform', () => {
  it('zooms about the pointer: the image point under it stays put, even rotated and panned', () => {
    const start: ViewTransform = { scale: 1.5, rotation: 90, x: 30, y: -20 };
    const pointer = { x: 120, y: 45 };
    const under = unproject(start, pointer);
    const next = zoomAt(start, 2, pointer, VIEWER_LIMITS);
    expect(next.scale).toBe(3);
    const after = project(next, under);
    expect(after.x).toBeCloseTo(pointer.x, 6);
    expect(after.y).toBeCloseTo(pointer.y, 6);
  });

  it('clamps zoom to the limits and keeps the anchor when clamped', () => {
    expect(zoomAt(IDENTITY, 100, { x: 0, y: 0 }, VIEWER_LIMITS).scale).toBe(VIEWER_LIMITS.max);
    expect(zoomAt(IDENTITY, 0.001, { x: 0, y: 0 }, VIEWER_LIMITS).scale).toBe(VIEWER_LIMITS.min);
    const atMax = { ...IDENTITY, scale: VIEWER_LIMITS.max };
    expect(zoomAt(atMax, 2, { x: 50, y: 50 }, VIEWER_LIMITS)).toEqual(atMax);
  });

  it('rotates by quarter turns and normalises for layout', () => {
    let t = IDENTITY;
    for (let i = 0; i < 5; i += 1) t = rotateBy(t, 1);
    expect(t.rotation).toBe(450);
    expect(normalizedRotation(t.rotation)).toBe(90);
    expect(normalizedRotation(rotateBy(IDENTITY, -1).rotation)).toBe(270);
  });

  it('turns wheel deltas into a smooth zoom factor in either direction', () => {
    expect(wheelFactor(-100)).toBeCloseTo(1.2, 6);
    expect(wheelFactor(100)).toBeCloseTo(1 / 1.2, 6);
    expect(wheelFactor(-3, 1)).toBeCloseTo(wheelFactor(-99), 6);
    expect(wheelFactor(-100000)).toBeCloseTo(wheelFactor(-300), 6);
  });

  it('pinches: doubles with the finger distance and follows the midpoint', () => {
    const start = { transform: IDENTITY, a: { x: -50, y: 0 }, b: { x: 50, y: 0 } };
    const t = pinch(start, { x: -90, y: 10 }, { x: 110, y: 10 }, VIEWER_LIMITS);
    expect(t.scale).toBeCloseTo(2, 6);
    // The image point that was under the first midpoint is now under the new midpoint.
    const p = project(t, unproject(IDENTITY, { x: 0, y: 0 }));
    expect(p.x).toBeCloseTo(10, 6);
    expect(p.y).toBeCloseTo(10, 6);
  });

  it('fits the image in the box, swapping sides when turned sideways, never enlarging', () => {
    expect(fittedSize({ width: 2000, height: 1000 }, { width: 1000, height: 800 }, 0)).toEqual({
      width: 1000,
      height: 500,
    });
    expect(fittedSize({ width: 2000, height: 1000 }, { width: 1000, height: 800 }, 90)).toEqual({
      width: 800,
      height: 400,
    });
    expect(fittedSize({ width: 200, height: 100 }, { width: 1000, height: 800 }, 0)).toEqual({
      width: 200,
      height: 100,
    });
  });

  it('keeps part of the image in view however far it is dragged', () => {
    const box = { width: 800, height: 600 };
    const base = { width: 400, height: 300 };
    const far = clampPan(panBy(IDENTITY, 5000, -5000), base, box);
    expect(far.x).toBe((800 + 400) / 2 - 48);
    expect(far.y).toBe(-((600 + 300) / 2 - 48));
    const cover = clampPanToCover(panBy({ ...IDENTITY, scale: 2 }, 5000, 5000), box);
    expect(cover).toMatchObject({ x: 400, y: 300 });
    expect(clampPanToCover(panBy(IDENTITY, 10, 10), box)).toMatchObject({ x: 0, y: 0 });
  });

  it('writes a CSS transform in translate, rotate, scale order', () => {
    expect(toCssTransform({ scale: 2, rotation: 90, x: 1, y: -2 })).toBe(
      'translate(1.00px, -2.00px) rotate(90deg) scale(2.0000)',
    );
  });
});
