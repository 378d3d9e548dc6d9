// Variant preview: choose a small crop of one image, upscale it with every Real-CUGAN variant of
// the chosen scale, compare the results side by side with one shared zoom, and apply the chosen
// model to the whole batch. Each variant is one POST /upscale/single of the crop, three at a time.
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IDENTITY, type ViewTransform } from '../../../components/image-viewer/viewer-transform';
import { isCancelled } from '../../../lib/api';
import { upscaleCrop, type UpscaleCropFn } from '../api/upscale-crop';
import { useObjectUrl } from '../hooks/use-object-url';
import { DEFAULT_CROP_SIZE, centreCrop, type CropRect } from '../model/crop-rect';
import { cropToPng } from '../model/crop-to-png';
import { runLimited } from '../model/run-limited';
import { variantsForScale, type VariantModel } from '../model/variant-models';
import { VariantPreviewCropPicker } from './variant-preview-crop-picker';
import { VariantPreviewTile } from './variant-preview-tile';
import './variant-preview.css';

export interface VariantPreviewProps {
  /** The original file the crop is cut from. */
  source: Blob;
  sourceName: string;
  scale: number;
  /** The service's model list (GET /models); only this scale's variants are used. */
  models: readonly VariantModel[];
  /** Called with the chosen model_name. */
  onApply: (modelName: string) => void;
  onCancel?: () => void;
  /** Preselected model, e.g. the noise estimate's suggestion. */
  suggestedModel?: string;
  cropSize?: number;
  /** Injected in tests; defaults to the real service call. */
  upscale?: UpscaleCropFn;
  /** Injected in tests; defaults to cutting the crop with OffscreenCanvas. */
  cutCrop?: (source: Blob, crop: CropRect) => Promise<Blob>;
}

type VariantState =
  { state: 'loading' } | { state: 'done'; blob: Blob; ms: number } | { state: 'failed'; message: string };

const IN_FLIGHT = 3;

function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : String(error);
}

export function VariantPreview({
  source,
  sourceName,
  scale,
  models,
  onApply,
  onCancel,
  suggestedModel,
  cropSize = DEFAULT_CROP_SIZE,
  upscale = upscaleCrop,
  cutCrop = cropToPng,
}: VariantPreviewProps) {
  const { t } = useTranslation();
  const group = useId();
  const variants = useMemo(() => variantsForScale(models, scale), [models, scale]);
  const sourceUrl = useObjectUrl(source);
  const [natural, setNatural] = useState({ width: 0, height: 0 });
  const [crop, setCrop] = useState<CropRect | null>(null);
  const [cropBlob, setCropBlob] = useState<Blob | null>(null);
  const cropUrl = useObjectUrl(cropBlob);
  const [results, setResults] = useState<Record<string, VariantState>>({});
  const [view, setView] = useState<ViewTransform>(IDENTITY);
  const [chosen, setChosen] = useState<string | null>(null);
  const run = useRef<AbortController | null>(null);

  useEffect(() => () => run.current?.abort(), []);

  useEffect(() => {
    const names = variants.map((variant) => variant.name);
    setChosen((current) => {
      if (current && names.includes(current)) return current;
      if (suggestedModel && names.includes(suggestedModel)) return suggestedModel;
      return variants.find((variant) => variant.recommended)?.name ?? names[0] ?? null;
    });
  }, [variants, suggestedModel]);

  const onLoad = (size: { width: number; height: number }) => {
    setNatural(size);
    setCrop((current) => current ?? centreCrop(size.width, size.height, cropSize));
  };

  const upscaleOne = useCallback(
    async (image: Blob, modelName: string, signal: AbortSignal) => {
      setResults((previous) => ({ ...previous, [modelName]: { state: 'loading' } }));
      const started = performance.now();
      try {
        const blob = await upscale({
          image,
          fileName: `crop-${sourceName.replace(/\.[^.]*$/, '')}.png`,
          modelName,
          tileMode: 0,
          cacheMode: 0,
          alpha: 1,
          signal,
        });
        if (signal.aborted) return;
        setResults((previous) => ({
          ...previous,
          [modelName]: { state: 'done', blob, ms: performance.now() - started },
        }));
      } catch (error) {
        if (signal.aborted || isCancelled(error)) return;
        setResults((previous) => ({
          ...previous,
          [modelName]: { state: 'failed', message: errorMessage(error) },
        }));
      }
    },
    [upscale, sourceName],
  );

  const preview = async () => {
    if (!crop) return;
    run.current?.abort();
    const controller = new AbortController();
    run.current = controller;
    setView(IDENTITY);
    let image: Blob;
    try {
      image = await cutCrop(source, crop);
    } catch (error) {
      const message = errorMessage(error);
      setResults(Object.fromEntries(variants.map((variant) => [variant.name, { state: 'failed', message }])));
      return;
    }
    if (controller.signal.aborted) return;
    setCropBlob(image);
    setResults(Object.fromEntries(variants.map((variant) => [variant.name, { state: 'loading' }])));
    await runLimited(
      variants,
      IN_FLIGHT,
      (variant) => upscaleOne(image, variant.name, controller.signal),
      controller.signal,
    );
  };

  const retry = (modelName: string) => {
    if (!cropBlob || !run.current) return;
    void upscaleOne(cropBlob, modelName, run.current.signal);
  };

  const started = Object.keys(results).length > 0;
  const busy = Object.values(results).some((result) => result.state === 'loading');

  return (
    <section className="variant-preview" aria-label={t('imageProcessing.variants.title')}>
      <header className="variant-preview__head">
        <h3>{t('imageProcessing.variants.title')}</h3>
        <p>{t('imageProcessing.variants.help', { size: crop?.size ?? cropSize, scale })}</p>
      </header>

      <div className="variant-preview__pick">
        {sourceUrl && (
          <VariantPreviewCropPicker
            src={sourceUrl}
            alt={sourceName}
            natural={natural}
            crop={crop}
            cropSize={cropSize}
            onLoad={onLoad}
            onChange={setCrop}
          />
        )}
        <div className="variant-preview__pick-actions">
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => void preview()}
            disabled={!crop || variants.length === 0}
          >
            {started
              ? t('imageProcessing.variants.previewAgain')
              : t('imageProcessing.variants.preview', { count: variants.length })}
          </button>
          {variants.length === 0 && <p role="status">{t('imageProcessing.variants.noModels', { scale })}</p>}
        </div>
      </div>

      {started && (
        <>
          <p className="variant-preview__zoom-hint">{t('imageProcessing.variants.zoomHint')}</p>
          <div
            className="variant-preview__grid"
            role="radiogroup"
            aria-label={t('imageProcessing.variants.choose')}
          >
            <VariantPreviewTile
              label={t('imageProcessing.variants.original')}
              src={cropUrl}
              view={view}
              onViewChange={setView}
            />
            {variants.map((variant) => {
              const result = results[variant.name];
              return (
                <VariantResultTile
                  key={variant.name}
                  variant={variant}
                  result={result}
                  group={group}
                  checked={chosen === variant.name}
                  suggested={variant.name === suggestedModel}
                  view={view}
                  onViewChange={setView}
                  onSelect={() => setChosen(variant.name)}
                  onRetry={() => retry(variant.name)}
                />
              );
            })}
          </div>
        </>
      )}

      <footer className="variant-preview__actions">
        {onCancel && (
          <button type="button" className="btn btn--ghost" onClick={onCancel}>
            {t('imageProcessing.variants.cancel')}
          </button>
        )}
        <button
          type="button"
          className="btn btn--primary"
          disabled={!chosen || busy}
          onClick={() => chosen && onApply(chosen)}
        >
          {t('imageProcessing.variants.apply', {
            model: variants.find((v) => v.name === chosen)?.displayName ?? chosen ?? '',
          })}
        </button>
      </footer>
    </section>
  );
}

interface ResultTileProps {
  variant: VariantModel;
  result: VariantState | undefined;
  group: string;
  checked: boolean;
  suggested: boolean;
  view: ViewTransform;
  onViewChange: (view: ViewTransform) => void;
  onSelect: () => void;
  onRetry: () => void;
}

function VariantResultTile({
  variant,
  result,
  group,
  checked,
  suggested,
  view,
  onViewChange,
  onSelect,
  onRetry,
}: ResultTileProps) {
  const { t } = useTranslation();
  const url = useObjectUrl(result?.state === 'done' ? result.blob : null);
  return (
    <VariantPreviewTile
      label={variant.displayName}
      src={url}
      view={view}
      onViewChange={onViewChange}
      group={group}
      value={variant.name}
      checked={checked}
      onSelect={onSelect}
      badge={
        suggested
          ? t('imageProcessing.variants.suggested')
          : variant.recommended
            ? t('imageProcessing.variants.recommended')
            : undefined
      }
      status={t('imageProcessing.variants.loading')}
      error={
        result?.state === 'failed'
          ? t('imageProcessing.variants.failed', { message: result.message })
          : undefined
      }
      onRetry={onRetry}
      retryLabel={t('imageProcessing.variants.retry')}
    />
  );
}
