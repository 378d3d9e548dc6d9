// Generating images into rows made beforehand (the six candidates of a request, or the images of a
// regenerate run): only rows not yet completed are asked for, each image is saved the moment the
// provider hands it over (so a cut stream or a crash loses nothing finished), and rows the
// provider left without an image end as failed. Every write is a guarded move (row-states.ts): an
// image a cancel already failed is never brought back, and the run stops with RowMovedOn.
import { ProviderError, type GeneratedImage, type ImageGenerationInput } from '../../providers/capabilities.js';
import type { ImageGenerator } from '../../providers/capabilities.js';
import { failureColumns, NO_FAILURE } from './failure.js';
import { mustMove, RowMovedOn } from './row-states.js';
import type { GenerationContext } from './generation-context.js';
import type { ProviderSlot } from './generation-providers.js';
import type { GeneratedImageRow } from './generation-tables.js';
import { saveGeneratedImage } from './stored-images.js';
import type { MessageKey } from '../../http/messages.js';

export interface FillOptions {
  slot: ProviderSlot<ImageGenerator>;
  rows: GeneratedImageRow[];
  input: Omit<ImageGenerationInput, 'count'>;
  failureKey: MessageKey;
  onSaved: (row: GeneratedImageRow, done: number, total: number) => void;
}

/** Answers how many rows ended with an image. */
export async function fillImageRows(ctx: GenerationContext, o: FillOptions): Promise<number> {
  const open = o.rows.filter((r) => r.status !== 'completed');
  let done = o.rows.length - open.length;
  if (open.length === 0) return done;
  o.input.signal.throwIfAborted();
  for (const row of open) mustMove(await ctx.repo.moveImage(row.id, 'generating', NO_FAILURE), `image ${row.id}`);

  const saved = new Set<number>();
  let chain = Promise.resolve();
  let saveError: unknown;
  const save = (image: GeneratedImage, index: number, model: string | undefined) => {
    const row = open[index];
    if (!row || saved.has(index)) return;
    saved.add(index);
    chain = chain.then(async () => {
      if (o.input.signal.aborted || saveError) return;
      try {
        const file = await saveGeneratedImage(ctx.files, image);
        o.input.signal.throwIfAborted();
        const completed = {
          file_id: file.fileId,
          thumbnail_file_id: file.thumbnailFileId,
          width: file.width,
          height: file.height,
          label: image.label ?? null,
          labels_json: image.labels ? JSON.stringify(image.labels) : null,
          model: model ?? o.slot.provider,
          provider: o.slot.provider,
          completed_at: ctx.repo.now(),
        };
        mustMove(await ctx.repo.moveImage(row.id, 'completed', completed), `image ${row.id}`);
        done++;
        o.onSaved({ ...row, ...completed, status: 'completed' }, done, o.rows.length);
      } catch (error) {
        saveError = error;
      }
    });
  };

  let result: Awaited<ReturnType<ImageGenerator['generateImages']>>;
  try {
    result = await o.slot.impl.generateImages({ ...o.input, count: open.length }, (image, index) =>
      save(image, index, undefined),
    );
  } catch (error) {
    // What arrived before the failure is kept: a retry asks only for the rest.
    await chain;
    throw saveError instanceof RowMovedOn ? saveError : error;
  }
  // Images handed over only in the final answer are saved too, with the model now known.
  result.images.forEach((image, index) => save(image, index, result.model));
  await chain;
  o.input.signal.throwIfAborted();
  if (saveError) throw saveError;
  // The model is only known at the end: the rows saved on the way get it now.
  for (const row of open) {
    if (saved.has(open.indexOf(row))) mustMove(await ctx.repo.moveImage(row.id, 'completed', { model: result.model }), `image ${row.id}`);
  }
  if (done === 0) throw new ProviderError('bad_response', 'the provider returned no image');
  const missing = open.filter((_, index) => !saved.has(index));
  for (const row of missing) {
    const failure = failureColumns(new ProviderError('bad_response', `the provider returned ${result.images.length} of ${open.length} images`), o.failureKey);
    mustMove(await ctx.repo.moveImage(row.id, 'failed', failure), `image ${row.id}`);
  }
  return done;
}
