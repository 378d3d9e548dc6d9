// The rule of the analyse event stream, checked on the events a test read: each word is about a
// stage no earlier than the one before it (connecting, engine ready, the text, the analysis, the
// images, completed), no stage or image is said twice, the stream ends with one final event
// (complete or error), and that final event is what the request is when the test ends.
import { message } from '../../../../server/http/messages.js';

const say = (key: Parameters<typeof message>[0]) => message(key, 'en-US');

/** Where an event stands among the stages; undefined for words that stay where the bar is (retrying, engine steps). */
function stageOf(e: Record<string, unknown>): number | undefined {
  if (e.type === 'streaming' || e.type === 'streaming_reset') return 2;
  if (e.type === 'complete' || e.type === 'error') return 5;
  if (e.type !== 'progress') return undefined;
  if (e.stage === 'analysed') return 3;
  if (e.stage === 'image_ready') return 4;
  if (e.progress === 100) return 5;
  if (e.retry_in_ms !== undefined) return undefined;
  if (e.message === say('progress_connecting')) return 0;
  if (e.message === say('progress_engine_ready')) return 1;
  if (e.message === say('progress_generating')) return 2;
  return undefined;
}

/** Checks the stream's rule and answers what broke it (an empty list when it held). */
export function orderProblems(events: Record<string, unknown>[], requestStatus: string): string[] {
  const problems: string[] = [];
  let reached = -1;
  const said = new Set<string>();
  events.forEach((e, i) => {
    const stage = stageOf(e);
    if (stage !== undefined) {
      if (stage < reached) problems.push(`${JSON.stringify(e)} at ${i} after a later stage`);
      reached = Math.max(reached, stage);
    }
    const once =
      e.stage === 'analysed' ? 'analysed' : e.stage === 'image_ready' ? `image ${(e.image as { id: number }).id}` : undefined;
    if (once) {
      if (said.has(once)) problems.push(`${once} said twice`);
      said.add(once);
    }
    const final = e.type === 'complete' || e.type === 'error';
    if (final && i !== events.length - 1) problems.push(`${e.type} at ${i} is not the last event`);
  });
  const last = events.at(-1);
  if (last?.type === 'complete') {
    const status = (last.data as { status: string }).status;
    if (status !== 'completed') problems.push(`complete with the request ${status}`);
    if (requestStatus !== 'completed') problems.push(`complete while the request is ${requestStatus}`);
  } else if (last?.type === 'error') {
    if (requestStatus !== 'failed') problems.push(`error while the request is ${requestStatus}`);
  } else {
    problems.push('the stream did not end with complete or error');
  }
  return problems;
}
