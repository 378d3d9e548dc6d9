// Where the before/after divider sits, as a percentage of the box width, and how keys move it.

export const POSITION_MIN = 0;
export const POSITION_MAX = 100;
const SMALL_STEP = 1;
const LARGE_STEP = 10;

export function clampPosition(value: number): number {
  return Math.min(POSITION_MAX, Math.max(POSITION_MIN, value));
}

/** The position for a key press, or null when the key is not one the slider handles. */
export function positionForKey(position: number, key: string, shiftKey = false): number | null {
  const step = shiftKey ? LARGE_STEP : SMALL_STEP;
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clampPosition(position - step);
    case 'ArrowRight':
    case 'ArrowUp':
      return clampPosition(position + step);
    case 'PageDown':
      return clampPosition(position - LARGE_STEP);
    case 'PageUp':
      return clampPosition(position + LARGE_STEP);
    case 'Home':
      return POSITION_MIN;
    case 'End':
      return POSITION_MAX;
    default:
      return null;
  }
}

/** The position under a pointer at clientX over a box starting at left with the given width. */
export function positionFromClientX(clientX: number, left: number, width: number): number {
  return width > 0 ? clampPosition(((clientX - left) / width) * 100) : 50;
}
