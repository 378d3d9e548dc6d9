// A single download's file name: the same as the result's name inside the batch ZIP.
import type { QueueItem } from '../../../workers/upscale-queue/protocol';
import { baseZipName } from '../../../lib/zip/zip-naming';

export function resultFileName(item: QueueItem): string {
  return baseZipName({
    sourceName: item.fileName,
    modelName: item.params.modelName,
    scale: item.params.scale,
    mimeType: item.result?.outputType,
  });
}
