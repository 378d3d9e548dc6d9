// Picks the square of the source image the variants are compared on: tap or drag to place it,
// arrow keys to nudge it by a JPEG block (Shift for bigger steps).
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cropAround, moveCropByKey, type CropRect } from '../model/crop-rect';

interface Props {
  src: string;
  alt: string;
  natural: { width: number; height: number };
  crop: CropRect | null;
  cropSize: number;
  onLoad: (natural: { width: number; height: number }) => void;
  onChange: (crop: CropRect) => void;
}

export function VariantPreviewCropPicker({ src, alt, natural, crop, cropSize, onLoad, onChange }: Props) {
  const { t } = useTranslation();
  const imageRef = useRef<HTMLImageElement>(null);
  const dragging = useRef<number | null>(null);

  const placeAt = (clientX: number, clientY: number) => {
    const image = imageRef.current;
    if (!image || !natural.width) return;
    const box = image.getBoundingClientRect();
    if (!box.width || !box.height) return;
    const cx = ((clientX - box.left) / box.width) * natural.width;
    const cy = ((clientY - box.top) / box.height) * natural.height;
    onChange(cropAround(cx, cy, natural.width, natural.height, cropSize));
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    dragging.current = event.pointerId;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    placeAt(event.clientX, event.clientY);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current === event.pointerId) placeAt(event.clientX, event.clientY);
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current === event.pointerId) dragging.current = null;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!crop) return;
    const next = moveCropByKey(crop, event.key, event.shiftKey, natural.width, natural.height);
    if (!next) return;
    event.preventDefault();
    onChange(next);
  };

  const percent = (value: number, total: number) => `${total ? (value / total) * 100 : 0}%`;

  return (
    <div
      className="variant-crop"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
    >
      <img
        ref={imageRef}
        src={src}
        alt={alt}
        draggable={false}
        onLoad={(event) =>
          onLoad({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })
        }
      />
      {crop && natural.width > 0 && (
        <div
          className="variant-crop__box"
          tabIndex={0}
          role="group"
          aria-label={t('imageProcessing.variants.cropArea', { x: crop.x, y: crop.y, size: crop.size })}
          data-testid="variant-crop-box"
          onKeyDown={onKeyDown}
          style={{
            left: percent(crop.x, natural.width),
            top: percent(crop.y, natural.height),
            width: percent(crop.size, natural.width),
            height: percent(crop.size, natural.height),
          }}
        />
      )}
    </div>
  );
}
