// Which rows of a long grid are in its scroll area (plus a few either side): the grid renders only
// those, so 500 rows cost what 15 do. Reads the scroll position on scroll (once a frame, however
// many scroll events a fling sends) and the height on resize.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

export interface RowWindow {
  start: number;
  end: number;
}

const OVERSCAN = 4;

export function windowFor(scrollTop: number, height: number, rowHeight: number, headerHeight: number, count: number): RowWindow {
  const top = Math.max(0, scrollTop - headerHeight);
  const start = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
  const end = Math.min(count, Math.ceil((top + height) / rowHeight) + OVERSCAN);
  return { start, end: Math.max(start, end) };
}

export function useVisibleRows(
  scroller: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
  headerHeight: number,
): RowWindow {
  const [view, setView] = useState({ scrollTop: 0, height: 800 });
  const frame = useRef(0);

  const measure = useCallback(() => {
    frame.current = 0;
    const el = scroller.current;
    if (!el) return;
    setView((current) =>
      current.scrollTop === el.scrollTop && current.height === el.clientHeight ? current : { scrollTop: el.scrollTop, height: el.clientHeight },
    );
  }, [scroller]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    measure();
    const onScroll = () => {
      if (!frame.current) frame.current = requestAnimationFrame(measure);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      observer?.disconnect();
      cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, [scroller, measure]);

  return windowFor(view.scrollTop, view.height, rowHeight, headerHeight, count);
}
