// /image-processing: the upscale workspace with the comparison, the viewer and the batch ZIP.
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ImageViewer } from '../../../components/image-viewer/image-viewer';
import type { QueueItem } from '../../../workers/upscale-queue/protocol';
import { fetchResultBlob } from '../api/fetch-result-blob';
import { useItemImages } from '../hooks/use-item-images';
import { formatBytes, formatSeconds } from '../model/format';
import { resultFileName } from '../model/result-file-name';
import { saveBlob } from '../../../lib/media/save-blob';
import { CompareDialog } from './compare-dialog';
import { UpscaleWorkspace } from './upscale-workspace';
import { ZipDownloadButton } from './zip-download-button';

export default function ImageProcessingPage() {
  const [comparing, setComparing] = useState<QueueItem | null>(null);
  const [viewing, setViewing] = useState<QueueItem | null>(null);
  const onOpen = useCallback((item: QueueItem, mode: 'compare' | 'view') => {
    if (mode === 'compare') setComparing(item);
    else setViewing(item);
  }, []);
  const batchActions = useCallback((completed: QueueItem[]) => <ZipDownloadButton items={completed} />, []);

  return (
    <>
      <UpscaleWorkspace onOpen={onOpen} batchActions={batchActions} />
      <CompareDialog item={comparing} onClose={() => setComparing(null)} />
      <ResultViewer item={viewing} onClose={() => setViewing(null)} />
    </>
  );
}

function ResultViewer({ item, onClose }: { item: QueueItem | null; onClose(): void }) {
  const { t } = useTranslation();
  const { after } = useItemImages(item);
  if (!item || !after) return null;
  const r = item.result;
  const download = async () => {
    try {
      saveBlob(await fetchResultBlob(item), resultFileName(item));
    } catch {
      toast.error(t('imageProcessing.errors.downloadFailed'));
    }
  };
  return (
    <ImageViewer
      open
      src={after}
      alt={item.fileName}
      title={item.fileName}
      fileName={resultFileName(item)}
      onDownload={() => void download()}
      onClose={onClose}
      details={
        r && (
          <span>
            {`${item.params.modelName} · ${item.params.scale}x`}
            {r.width && r.height ? ` · ${r.width}×${r.height}` : ''}
            {r.outputSize ? ` · ${formatBytes(r.outputSize)}` : ''}
            {` · ${t('imageProcessing.result.seconds', { value: formatSeconds(r.durationMs) })}`}
          </span>
        )
      }
    />
  );
}
