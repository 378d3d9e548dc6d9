// Generating images into rows made beforehand (the six candidates of a request, or the images of a
// regenerate run): only rows still open (pending or generating) are asked for, each image is saved
// the moment the provider hands it over (so a cut stream or a crash loses nothing finished), and
// each candidate succeeds or fails on its own. A candidate the provider refused (a safety block,
// an answer without an image) ends as failed with its reason while its siblings are kept; one left
// by a rate limit or an outage stays open and the run fails retryably, so the job runner's next
// run asks for the missing ones only. Every write is a guarded move (row-states.ts): an image a
// cancel already failed is never brought back, and the run stops with RowMovedOn. An adapter that
// names its tasks (ComfyUI) keeps each candidate's task id on its row before sending it, and a
// later run of the same rows is handed those ids to follow.
import { ProviderError, type CandidateFailure, type GeneratedImage, type ImageGenerationInput } from '../../../providers/capabilities.js';
import type { ImageGenerator } from '../../../providers/capabilities.js';
import { leftForNextRun } from '../../../jobs/stop-reason.js';
import { failureColumns, NO_FAILURE } from '../failure.js';
import { mustMove, RowMovedOn } from '../store/row-states.js';
import type { GenerationContext } from '../generation-context.js';
import type { ProviderSlot } from '../engines/generation-providers.js';
import type { GeneratedImageRow } from '../store/generation-tables.js';
import { saveGeneratedImage } from '../store/stored-images.js';
import type { MessageKey } from '../../../http/messages.js';

export interface FillOptions {
  slot: ProviderSlot<ImageGenerator>;
  rows: GeneratedImageRow[];
  input: Omit<ImageGenerationInput, 'count'>;
  failureKey: MessageKey;
  onSaved: (row: GeneratedImageRow, done: number, total: number) => void;
}

/** How the rows ended: with an image, or refused by the provider. */
export interface FillOutcome {
  made: number;
  refused: number;
}

const isOpen = (row: GeneratedImageRow) => row.status === 'pending' || row.status === 'generating';

/** Refusals that concern one picture: the row ends failed, the others go on. */
const REFUSALS = new Set(['safety', 'bad_response']);

export async function fillImageRows(ctx: GenerationContext, o: FillOptions): Promise<FillOutcome> {
  const open = o.rows.filter(isOpen);
  let done = o.rows.filter((r) => r.status === 'completed').length;
  const refusedBefore = o.rows.filter((r) => r.status === 'failed').length;
  if (open.length === 0) return { made: done, refused: refusedBefore };
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
    const signal = o.input.signal;
    const tasks = {
      started: (index: number) => open[index]?.task_id ?? undefined,
      save: async (index: number, taskId: string) => {
        const row = open[index]!;
        mustMove(await ctx.repo.moveImage(row.id, 'generating', { task_id: taskId }), `image ${row.id}`);
      },
      leftForNextRun: () => leftForNextRun(signal),
    };
    result = await o.slot.impl.generateImages({ ...o.input, count: open.length, tasks }, (image, index) =>
      save(image, index, undefined),
    );
  } catch (error) {
    // What arrived before the failure is kept: a retry asks only for the rest.
    await chain;
    throw saveError instanceof RowMovedOn ? saveError : error;
  }
  // Images handed over only in the final answer are saved too, with the model now known.
  result.images.forEach((image, index) => {
    if (image) save(image, index, result.model);
  });
  await chain;
  o.input.signal.throwIfAborted();
  if (saveError) throw saveError;
  // The model is only known at the end: the rows saved on the way get it now.
  for (const row of open) {
    if (saved.has(open.indexOf(row))) mustMove(await ctx.repo.moveImage(row.id, 'completed', { model: result.model }), `image ${row.id}`);
  }

  const failures = new Map<number, CandidateFailure>((result.failures ?? []).map((f) => [f.index, f]));
  let refused = refusedBefore;
  let later: ProviderError | undefined;
  for (const [index, row] of open.entries()) {
    if (saved.has(index)) continue;
    const failure = failures.get(index)?.error;
    if (failure && !REFUSALS.has(failure.kind)) {
      // Left open for the job's next run.
      later ??= failure;
      continue;
    }
    const why = failure ?? new ProviderError('bad_response', `the provider returned ${saved.size} of ${open.length} images`);
    mustMove(await ctx.repo.moveImage(row.id, 'failed', failureColumns(why, o.failureKey)), `image ${row.id}`);
    refused++;
  }
  if (later) throw later;
  if (done === 0) throw failures.values().next().value?.error ?? new ProviderError('bad_response', 'the provider returned no image');
  return { made: done, refused };
}
