// A camera move as ffmpeg zoompan expressions over the output frame number `on`: how far the view
// is zoomed in and where the view window sits (as a fraction of the free room, 0..1, horizontally
// and vertically). Moves combine: a pan adds horizontal travel, a push adds zoom, a shake adds a
// small tremor. Motion is eased (smoothstep) so it starts and ends gently.
import type { CameraMove } from '../capabilities.js';

export interface CameraPath {
  zoom: string;
  x: string;
  y: string;
  /** Moves the path was made from (unknown or conflicting ones dropped). */
  moves: CameraMove[];
}

interface Motion {
  zoomFrom: number;
  zoomTo: number;
  eased: boolean;
  xFrom?: number;
  xTo?: number;
  yFrom?: number;
  yTo?: number;
  shake?: boolean;
}

/** Free room a pan or tilt needs: the view is this much zoomed in so it can travel. */
const TRAVEL_ZOOM = 1.2;

const MOTIONS: Record<CameraMove, Motion> = {
  'Static shot': { zoomFrom: 1, zoomTo: 1, eased: true },
  'Push in': { zoomFrom: 1, zoomTo: 1.35, eased: true },
  'Pull out': { zoomFrom: 1.35, zoomTo: 1, eased: true },
  // A zoom is an optical change: even speed, and further than a push.
  'Zoom in': { zoomFrom: 1, zoomTo: 1.5, eased: false },
  'Zoom out': { zoomFrom: 1.5, zoomTo: 1, eased: false },
  'Pan left': { zoomFrom: 1, zoomTo: 1, eased: true, xFrom: 1, xTo: 0 },
  'Pan right': { zoomFrom: 1, zoomTo: 1, eased: true, xFrom: 0, xTo: 1 },
  'Truck left': { zoomFrom: 1, zoomTo: 1, eased: true, xFrom: 0.85, xTo: 0.15 },
  'Truck right': { zoomFrom: 1, zoomTo: 1, eased: true, xFrom: 0.15, xTo: 0.85 },
  'Tilt up': { zoomFrom: 1, zoomTo: 1, eased: true, yFrom: 1, yTo: 0 },
  'Tilt down': { zoomFrom: 1, zoomTo: 1, eased: true, yFrom: 0, yTo: 1 },
  'Pedestal up': { zoomFrom: 1, zoomTo: 1, eased: true, yFrom: 0.85, yTo: 0.15 },
  'Pedestal down': { zoomFrom: 1, zoomTo: 1, eased: true, yFrom: 0.15, yTo: 0.85 },
  'Tracking shot': { zoomFrom: 1, zoomTo: 1.08, eased: true, xFrom: 0.2, xTo: 0.8 },
  Shake: { zoomFrom: 1, zoomTo: 1, eased: false, shake: true },
};

const num = (v: number) => Number(v.toFixed(5)).toString();

export function cameraPath(requested: readonly CameraMove[], frames: number, fps: number): CameraPath {
  // Static is only static alone; with other moves it is noise.
  const moves = [...new Set(requested.filter((m) => m in MOTIONS))].slice(0, 3);
  const effective = moves.length > 1 ? moves.filter((m) => m !== 'Static shot') : moves;
  const motions = effective.map((m) => MOTIONS[m]);
  const last = Math.max(1, frames - 1);
  const p = `min(on/${last},1)`;
  const eased = `(${p}*${p}*(3-2*${p}))`;
  const lerp = (from: number, to: number, e: string) => (from === to ? num(from) : `(${num(from)}+${num(to - from)}*${e})`);

  let zoomFrom = 1;
  let zoomTo = 1;
  let zoomEased = true;
  let x: string | undefined;
  let y: string | undefined;
  let shake = false;
  for (const m of motions) {
    zoomFrom *= m.zoomFrom;
    zoomTo *= m.zoomTo;
    if (m.zoomFrom !== m.zoomTo) zoomEased = m.eased;
    if (m.xFrom !== undefined && m.xTo !== undefined && x === undefined) x = lerp(m.xFrom, m.xTo, m.eased ? eased : p);
    if (m.yFrom !== undefined && m.yTo !== undefined && y === undefined) y = lerp(m.yFrom, m.yTo, m.eased ? eased : p);
    shake ||= m.shake === true;
  }
  // Travel and tremor need room around the view.
  const room = x !== undefined || y !== undefined ? TRAVEL_ZOOM : shake ? 1.08 : 1;
  const base = Math.max(1, room / Math.min(zoomFrom, zoomTo));
  let zoom = lerp(zoomFrom * base, zoomTo * base, zoomEased ? eased : p);
  let fx = x ?? '0.5';
  let fy = y ?? '0.5';
  if (shake) {
    // Two incommensurate sines per axis: a handheld tremor that never repeats within a clip.
    const t = `(on/${num(fps)})`;
    fx = `(${fx}+0.18*sin(${t}*11.3)+0.1*sin(${t}*17.9))`;
    fy = `(${fy}+0.16*sin(${t}*13.7+1)+0.08*sin(${t}*21.1))`;
    zoom = `(${zoom})`;
  }
  return {
    zoom,
    x: `(iw-iw/zoom)*clip(${fx},0,1)`,
    y: `(ih-ih/zoom)*clip(${fy},0,1)`,
    moves: effective,
  };
}
