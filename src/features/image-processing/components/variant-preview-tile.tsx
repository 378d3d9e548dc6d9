// One tile of the variant preview: an image that zooms and pans in step with every other tile
// (the view is owned by the preview), with a radio button to choose it.
import { useCallback, useRef } from 'react';
import { usePanZoomGestures } from '../../../components/image-viewer/use-pan-zoom-gestures';
import {
  IDENTITY,
  clampPanToCover,
  toCssTransform,
  type ViewTransform,
  type ZoomLimits,
} from '../../../components/image-viewer/viewer-transform';

export const TILE_LIMITS: ZoomLimits = { min: 1, max: 8 };

interface Props {
  label: string;
  src: string | null;
  view: ViewTransform;
  onViewChange: (view: ViewTransform) => void;
  /** Radio group name; tiles without one (the original) cannot be chosen. */
  group?: string;
  value?: string;
  checked?: boolean;
  onSelect?: () => void;
  badge?: string;
  status?: string;
  error?: string;
  onRetry?: () => void;
  retryLabel?: string;
}

export function VariantPreviewTile({
  label,
  src,
  view,
  onViewChange,
  group,
  value,
  checked,
  onSelect,
  badge,
  status,
  error,
  onRetry,
  retryLabel,
}: Props) {
  const boxRef = useRef<HTMLDivElement | null>(null);
  const change = useCallback(
    (next: ViewTransform) => {
      const box = boxRef.current;
      const size = { width: box?.clientWidth ?? 0, height: box?.clientHeight ?? 0 };
      onViewChange(next.scale <= 1.0001 ? IDENTITY : clampPanToCover(next, size));
    },
    [onViewChange],
  );
  const gestures = usePanZoomGestures<HTMLDivElement>({
    transform: view,
    onChange: change,
    limits: TILE_LIMITS,
  });
  const setBox = useCallback(
    (element: HTMLDivElement | null) => {
      boxRef.current = element;
      gestures(element);
    },
    [gestures],
  );

  return (
    <figure
      className={`variant-tile${checked ? ' variant-tile--chosen' : ''}`}
      data-testid={value ? `variant-${value}` : 'variant-original'}
    >
      <div ref={setBox} className="variant-tile__box">
        {src ? (
          <img src={src} alt={label} draggable={false} style={{ transform: toCssTransform(view) }} />
        ) : (
          <div className="variant-tile__placeholder" role={error ? 'alert' : 'status'}>
            {error ?? status}
            {error && onRetry && (
              <button type="button" className="btn btn--ghost" onClick={onRetry} data-gesture-ignore="">
                {retryLabel}
              </button>
            )}
          </div>
        )}
        {badge && <span className="variant-tile__badge">{badge}</span>}
      </div>
      <figcaption className="variant-tile__caption">
        {group && value ? (
          <label>
            <input type="radio" name={group} value={value} checked={checked} onChange={onSelect} />
            <span>{label}</span>
          </label>
        ) : (
          <span>{label}</span>
        )}
      </figcaption>
    </figure>
  );
}
