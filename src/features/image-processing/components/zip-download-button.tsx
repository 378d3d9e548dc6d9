// The batch ZIP: results gathered from the device (or their links), packed in the ZIP worker with
// progress and a cancel; "ZIP generation failed" when it breaks.
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { buildZipInWorker, isAbortError, type ZipResultItem } from '../../../lib/workers/zip-bridge';
import type { QueueItem } from '../../../workers/upscale-queue/protocol';
import { fetchResultBlob } from '../api/fetch-result-blob';
import { saveBlob } from '../../../lib/media/save-blob';

export function ZipDownloadButton({ items }: { items: readonly QueueItem[] }) {
  const { t } = useTranslation();
  const [percent, setPercent] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setPercent(0);
    try {
      const entries: ZipResultItem[] = [];
      for (const item of items) {
        const blob = await fetchResultBlob(item, abort.signal);
        entries.push({
          sourceName: item.fileName,
          blob,
          modelName: item.params.modelName,
          scale: item.params.scale,
          width: item.result?.width ?? 0,
          height: item.result?.height ?? 0,
          durationMs: item.result?.durationMs ?? 0,
        });
      }
      const zip = await buildZipInWorker(entries, {
        signal: abort.signal,
        // Progress comes over its own message port and can land after the build has settled;
        // only the build still running may move the bar, or a late report would bring it back.
        onProgress: (p) => {
          if (controller.current === abort)
            setPercent(p.totalBytes ? Math.round((p.processedBytes / p.totalBytes) * 100) : 0);
        },
      });
      saveBlob(zip, `loom-upscaled-${new Date().toISOString().slice(0, 10)}.zip`);
    } catch (error) {
      if (!isAbortError(error) && !abort.signal.aborted) toast.error(t('imageProcessing.zip.failed'));
    } finally {
      controller.current = null;
      setPercent(null);
    }
  };

  if (percent !== null) {
    return (
      <div className="ip-zip" role="status" data-testid="zip-progress">
        <span>{t('imageProcessing.zip.building', { percent })}</span>
        <button
          type="button"
          className="ip-button"
          onClick={() => controller.current?.abort()}
          data-testid="zip-cancel"
        >
          {t('imageProcessing.actions.cancel')}
        </button>
      </div>
    );
  }
  return (
    <button
      type="button"
      className="ip-button ip-button--primary"
      onClick={() => void start()}
      data-testid="zip-download"
    >
      {t('imageProcessing.zip.download', { count: items.length })}
    </button>
  );
}
