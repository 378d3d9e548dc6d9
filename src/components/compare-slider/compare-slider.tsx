// Before/after comparison: the two images stacked in one box, the after image clipped at the
// divider. Mouse, touch and pen drag the divider; the keyboard moves it (arrows, Page keys, Home,
// End) on the role="slider" handle. Wheel, pinch and the zoom buttons zoom both sides together,
// and a drag pans both when zoomed in, so the same detail is always compared.
import {
  useCallback,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { usePanZoomGestures, type DragPhase } from '../image-viewer/use-pan-zoom-gestures';
import {
  IDENTITY,
  ZOOM_STEP,
  clampPanToCover,
  toCssTransform,
  zoomTo,
  type Point,
  type ViewTransform,
  type ZoomLimits,
} from '../image-viewer/viewer-transform';
import { positionForKey, positionFromClientX } from './compare-position';
import './compare-slider.css';

export const COMPARE_LIMITS: ZoomLimits = { min: 1, max: 8 };

export interface CompareSliderProps {
  beforeSrc: string;
  afterSrc: string;
  beforeLabel?: string;
  afterLabel?: string;
  /** Divider start, 0–100 (percent from the left). */
  initialPosition?: number;
  onPositionChange?: (position: number) => void;
  className?: string;
  style?: CSSProperties;
}

export function CompareSlider({
  beforeSrc,
  afterSrc,
  beforeLabel,
  afterLabel,
  initialPosition = 50,
  onPositionChange,
  className,
  style,
}: CompareSliderProps) {
  const { t } = useTranslation();
  const [position, setPositionState] = useState(initialPosition);
  const [view, setView] = useState<ViewTransform>(IDENTITY);
  const boxRef = useRef<HTMLDivElement | null>(null);
  const handleDrag = useRef<number | null>(null);

  const setPosition = useCallback(
    (next: number) => {
      setPositionState(next);
      onPositionChange?.(next);
    },
    [onPositionChange],
  );

  const changeView = useCallback((next: ViewTransform) => {
    const box = boxRef.current?.getBoundingClientRect();
    const size = { width: box?.width ?? 0, height: box?.height ?? 0 };
    setView(next.scale <= 1.0001 ? IDENTITY : clampPanToCover(next, size));
  }, []);

  const moveTo = useCallback(
    (client: Point) => {
      const box = boxRef.current?.getBoundingClientRect();
      if (box) setPosition(positionFromClientX(client.x, box.left, box.width));
    },
    [setPosition],
  );

  const gestureRef = usePanZoomGestures<HTMLDivElement>({
    transform: view,
    onChange: changeView,
    limits: COMPARE_LIMITS,
    // Unzoomed, a drag anywhere moves the divider; zoomed in, it pans both images.
    canPan: (current) => current.scale > 1,
    onDrag: (client: Point, phase: DragPhase) => {
      if (phase !== 'end') moveTo(client);
    },
  });

  const setBox = useCallback(
    (element: HTMLDivElement | null) => {
      boxRef.current = element;
      gestureRef(element);
    },
    [gestureRef],
  );

  const onHandleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === '+' || event.key === '=')
      changeView(zoomTo(view, view.scale * ZOOM_STEP, COMPARE_LIMITS));
    else if (event.key === '-') changeView(zoomTo(view, view.scale / ZOOM_STEP, COMPARE_LIMITS));
    else if (event.key === '0') changeView(IDENTITY);
    else {
      const next = positionForKey(position, event.key, event.shiftKey);
      if (next === null) return;
      setPosition(next);
    }
    event.preventDefault();
  };

  const onHandlePointerDown = (event: PointerEvent<HTMLDivElement>) => {
    handleDrag.current = event.pointerId;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    event.currentTarget.focus();
  };
  const onHandlePointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (handleDrag.current === event.pointerId) moveTo({ x: event.clientX, y: event.clientY });
  };
  const onHandlePointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (handleDrag.current === event.pointerId) handleDrag.current = null;
  };

  const rounded = Math.round(position);
  const zoomed = view.scale > 1;
  const imageStyle: CSSProperties = { transform: toCssTransform(view) };

  return (
    <div
      ref={setBox}
      className={['compare-slider', zoomed ? 'compare-slider--zoomed' : '', className ?? ''].join(' ').trim()}
      style={{ ...style, ['--compare-position' as string]: `${position}%` }}
      data-testid="compare-slider"
    >
      <div className="compare-slider__layer">
        <img
          src={beforeSrc}
          alt={beforeLabel ?? t('imageProcessing.compare.before')}
          draggable={false}
          style={imageStyle}
        />
      </div>
      <div className="compare-slider__layer compare-slider__layer--after">
        <img
          src={afterSrc}
          alt={afterLabel ?? t('imageProcessing.compare.after')}
          draggable={false}
          style={imageStyle}
        />
      </div>
      <span className="compare-slider__tag compare-slider__tag--before" aria-hidden="true">
        {beforeLabel ?? t('imageProcessing.compare.before')}
      </span>
      <span className="compare-slider__tag compare-slider__tag--after" aria-hidden="true">
        {afterLabel ?? t('imageProcessing.compare.after')}
      </span>
      <div
        className="compare-slider__handle"
        role="slider"
        tabIndex={0}
        aria-label={t('imageProcessing.compare.handle')}
        aria-orientation="horizontal"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={rounded}
        aria-valuetext={t('imageProcessing.compare.valueText', { percent: rounded })}
        data-gesture-ignore=""
        onKeyDown={onHandleKeyDown}
        onPointerDown={onHandlePointerDown}
        onPointerMove={onHandlePointerMove}
        onPointerUp={onHandlePointerUp}
        onPointerCancel={onHandlePointerUp}
      >
        <span className="compare-slider__grip" aria-hidden="true" />
      </div>
      <div className="compare-slider__zoom" data-gesture-ignore="">
        <button
          type="button"
          aria-label={t('imageProcessing.viewer.zoomOut')}
          onClick={() => changeView(zoomTo(view, view.scale / ZOOM_STEP, COMPARE_LIMITS))}
          disabled={!zoomed}
        >
          −
        </button>
        <button
          type="button"
          // The shown zoom first, so the name contains the visible text (axe label-content-name-mismatch).
          aria-label={`${Math.round(view.scale * 100)}% ${t('imageProcessing.viewer.reset')}`}
          onClick={() => changeView(IDENTITY)}
        >
          {Math.round(view.scale * 100)}%
        </button>
        <button
          type="button"
          aria-label={t('imageProcessing.viewer.zoomIn')}
          onClick={() => changeView(zoomTo(view, view.scale * ZOOM_STEP, COMPARE_LIMITS))}
          disabled={view.scale >= COMPARE_LIMITS.max}
        >
          +
        </button>
      </div>
    </div>
  );
}
