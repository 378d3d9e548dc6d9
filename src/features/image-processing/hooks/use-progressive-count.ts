// How many of a list's items to mount now: all that were already shown, plus at most `step` (4) more
// per animation frame. A batch of 40 new cards then mounts over a few frames instead of in one
// long task that would make a tablet's scrolling and taps stutter.
import { startTransition, useEffect, useState } from 'react';

export function useProgressiveCount(total: number, step = 4): number {
  const [count, setCount] = useState(() => Math.min(total, step));
  useEffect(() => {
    if (count >= total) return;
    // As a transition: an update from a frame callback would otherwise render in one piece.
    const frame = requestAnimationFrame(() => startTransition(() => setCount((c) => Math.min(total, c + step))));
    return () => cancelAnimationFrame(frame);
  }, [count, total, step]);
  // Removed items shrink the list at once; the next growth starts from what is shown.
  useEffect(() => {
    if (count > total) setCount(total);
  }, [count, total]);
  return Math.min(count, total);
}
