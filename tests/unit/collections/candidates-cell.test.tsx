// The grid's candidates cell after a pick by the text model: each thumbnail carries its place in
// the model's ranking, seen and read out in the reader's language; a scored row reads its scores.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CandidateView, CollectionItemView } from '../../../shared/collections/collection-types';
import { CandidatesCell } from '../../../src/features/collections/components/grid/candidates-cell';
import { changeLanguage, initI18n } from '../../../src/i18n/i18n';

afterEach(cleanup);
beforeAll(() => initI18n());

const candidate = (image_id: number, position: number, over: Partial<CandidateView> = {}): CandidateView => ({
  image_id, position, status: 'completed', url: `/api/files/${image_id}.png?sig=x`, thumbnail_url: `/api/files/${image_id}.png?sig=x&thumb=1`, score: 0.5, model_rank: null, ...over,
});

function item(candidates: CandidateView[], over: Partial<CollectionItemView> = {}): CollectionItemView {
  return {
    id: 1, position: 0, code: 'F-1', name: null, status: 'review', stage: 'pick', error: null, request_id: 3, candidates,
    picked_image_id: null, pick_by: null, pick_reason: null, video_prompt: null, video: null, updated_at: '2026-11-27T00:00:00Z', ...over,
  };
}

describe('candidates cell', () => {
  it("shows and reads each candidate's place in the model's ranking", async () => {
    await changeLanguage('en-US');
    const ranked = [candidate(10, 0, { model_rank: 2 }), candidate(11, 1, { model_rank: 1 }), candidate(12, 2, { model_rank: 3 })];
    render(<CandidatesCell item={item(ranked, { picked_image_id: 11, pick_by: 'model' })} busy={false} onPick={() => {}} />);
    const buttons = screen.getAllByTestId('candidate-pick');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Pick Candidate 1, ranked 2 by the model',
      'Candidate 2, ranked 1 by the model, picked',
      'Pick Candidate 3, ranked 3 by the model',
    ]);
    expect(buttons.map((b) => b.querySelector('.cg-thumb__rank')?.textContent)).toEqual(['2', '1', '3']);
    expect(buttons[1]!.querySelector('.cg-thumb__rank')?.getAttribute('title')).toBe('Ranked 1 by the model');
  });

  it('reads the rank in the reader’s language, and a scored row its scores without a rank', async () => {
    await changeLanguage('zh-CN');
    render(<CandidatesCell item={item([candidate(10, 0, { model_rank: 1 }), candidate(11, 1, { model_rank: 2 })], { status: 'done' })} busy={false} onPick={() => {}} />);
    expect(screen.getAllByTestId('candidate').map((c) => c.getAttribute('aria-label'))).toEqual(['候选图 1，模型排第 1', '候选图 2，模型排第 2']);
    cleanup();
    await changeLanguage('en-US');
    render(<CandidatesCell item={item([candidate(10, 0), candidate(11, 1)], { status: 'done' })} busy={false} onPick={() => {}} />);
    const scored = screen.getAllByTestId('candidate');
    expect(scored.map((c) => c.getAttribute('aria-label'))).toEqual(['Candidate 1, score 0.50', 'Candidate 2, score 0.50']);
    expect(scored.every((c) => c.querySelector('.cg-thumb__rank') === null)).toBe(true);
  });
});
