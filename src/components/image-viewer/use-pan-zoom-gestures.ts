// Pointer gestures for a zoomable box: wheel zooms about the cursor, one pointer drags (pans, or is
// handed to onDrag when panning makes no sense), two pointers pinch. Mouse, pen and touch all
// arrive as pointer events. The wheel listener is attached natively because React's is passive
// and the page must not scroll while the user zooms.
import { useEffect, useRef, useState } from 'react';
import {
  panBy,
  pinch,
  wheelFactor,
  zoomAt,
  type PinchStart,
  type Point,
  type ViewTransform,
  type ZoomLimits,
} from './viewer-transform';

export type DragPhase = 'start' | 'move' | 'end';

export interface PanZoomGestureOptions {
  transform: ViewTransform;
  onChange: (next: ViewTransform) => void;
  limits: ZoomLimits;
  /** Whether a one-pointer drag pans now; otherwise it goes to onDrag. Default: always pan. */
  canPan?: (transform: ViewTransform) => boolean;
  /** One-pointer drags that do not pan, in client coordinates. */
  onDrag?: (client: Point, phase: DragPhase) => void;
  disabled?: boolean;
}

/** Pass the returned callback as the viewport box's ref; points are measured from its centre. */
export function usePanZoomGestures<T extends HTMLElement>(options: PanZoomGestureOptions) {
  const [element, setElement] = useState<T | null>(null);
  const latest = useRef(options);
  // Several pointer events can arrive before React re-renders: chain them on the last value sent.
  const working = useRef(options.transform);
  useEffect(() => {
    latest.current = options;
    working.current = options.transform;
  });

  useEffect(() => {
    if (!element) return;
    const emit = (next: ViewTransform) => {
      working.current = next;
      latest.current.onChange(next);
    };
    const pointers = new Map<number, Point>();
    let mode: 'none' | 'pan' | 'drag' | 'pinch' = 'none';
    let pinchStart: PinchStart | null = null;

    const local = (clientX: number, clientY: number): Point => {
      const box = element.getBoundingClientRect();
      return { x: clientX - box.left - box.width / 2, y: clientY - box.top - box.height / 2 };
    };

    const startPinch = () => {
      const [a, b] = [...pointers.values()];
      if (!a || !b) return;
      mode = 'pinch';
      pinchStart = { transform: working.current, a, b };
    };

    const onWheel = (event: WheelEvent) => {
      const o = latest.current;
      if (o.disabled) return;
      event.preventDefault();
      // Trackpad pinches arrive as ctrl+wheel with small deltas; the same formula suits both.
      o.onChange(
        zoomAt(
          o.transform,
          wheelFactor(event.deltaY, event.deltaMode),
          local(event.clientX, event.clientY),
          o.limits,
        ),
      );
    };

    const onPointerDown = (event: PointerEvent) => {
      const o = latest.current;
      if (o.disabled || (event.pointerType === 'mouse' && event.button !== 0)) return;
      // Controls inside the box (buttons, the slider handle) keep their own pointer handling.
      if (
        event.target instanceof Element &&
        event.target !== element &&
        event.target.closest('[data-gesture-ignore]')
      )
        return;
      pointers.set(event.pointerId, local(event.clientX, event.clientY));
      element.setPointerCapture?.(event.pointerId);
      if (pointers.size === 2) {
        if (mode === 'drag') o.onDrag?.({ x: event.clientX, y: event.clientY }, 'end');
        startPinch();
      } else if (pointers.size === 1) {
        const pans = o.canPan ? o.canPan(working.current) : true;
        mode = pans || !o.onDrag ? 'pan' : 'drag';
        if (mode === 'drag') o.onDrag?.({ x: event.clientX, y: event.clientY }, 'start');
      }
    };

    const onPointerMove = (event: PointerEvent) => {
      const previous = pointers.get(event.pointerId);
      if (!previous) return;
      const o = latest.current;
      const point = local(event.clientX, event.clientY);
      pointers.set(event.pointerId, point);
      if (mode === 'pinch' && pinchStart) {
        const [a, b] = [...pointers.values()];
        if (a && b) emit(pinch(pinchStart, a, b, o.limits));
      } else if (mode === 'pan') {
        emit(panBy(working.current, point.x - previous.x, point.y - previous.y));
      } else if (mode === 'drag') {
        o.onDrag?.({ x: event.clientX, y: event.clientY }, 'move');
      }
    };

    const onPointerUp = (event: PointerEvent) => {
      if (!pointers.delete(event.pointerId)) return;
      if (mode === 'drag') latest.current.onDrag?.({ x: event.clientX, y: event.clientY }, 'end');
      if (pointers.size === 1) {
        // Lifting one finger of a pinch continues as a pan, without a jump.
        mode = 'pan';
        pinchStart = null;
      } else if (pointers.size === 0) {
        mode = 'none';
        pinchStart = null;
      }
    };

    element.addEventListener('wheel', onWheel, { passive: false });
    element.addEventListener('pointerdown', onPointerDown);
    element.addEventListener('pointermove', onPointerMove);
    element.addEventListener('pointerup', onPointerUp);
    element.addEventListener('pointercancel', onPointerUp);
    return () => {
      element.removeEventListener('wheel', onWheel);
      element.removeEventListener('pointerdown', onPointerDown);
      element.removeEventListener('pointermove', onPointerMove);
      element.removeEventListener('pointerup', onPointerUp);
      element.removeEventListener('pointercancel', onPointerUp);
    };
  }, [element]);

  return setElement;
}
