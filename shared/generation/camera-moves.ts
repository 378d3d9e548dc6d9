// The camera moves a video prompt may name, in MiniMax's bracket vocabulary: the server validates
// and writes them, the PWA offers them as choices, so both read this one list.
export const CAMERA_MOVES = [
  'Static shot',
  'Push in',
  'Pull out',
  'Pan left',
  'Pan right',
  'Tilt up',
  'Tilt down',
  'Zoom in',
  'Zoom out',
  'Tracking shot',
  'Truck left',
  'Truck right',
  'Pedestal up',
  'Pedestal down',
  'Shake',
] as const;
export type CameraMove = (typeof CAMERA_MOVES)[number];

/** At most this many moves are combined in one prompt. */
export const MAX_CAMERA_MOVES = 3;
