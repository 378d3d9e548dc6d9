// The row's candidates as thumbnails, the chosen one marked, each with its place in the text
// model's ranking when the model picked. While the row may take another pick each thumbnail is a
// button that chooses it (a POST, busy until answered); otherwise they are pictures only.
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { CandidateView, CollectionItemView } from '../../../../../shared/collections/collection-types';
import { numberFormat } from '../../../../i18n/formats';
import { mayChangePick } from '../../model/collection-stage-state';

interface Props {
  item: CollectionItemView;
  busy: boolean;
  onPick: (imageId: number) => void;
}

function CandidateThumb({ candidate }: { candidate: CandidateView }) {
  const { t } = useTranslation();
  // The label of the thumbnail already says the rank; this is for the eye.
  const rank =
    candidate.model_rank === null ? null : (
      <span className="cg-thumb__rank" aria-hidden="true" title={t('collections.grid.modelRank', { rank: candidate.model_rank })}>
        {candidate.model_rank}
      </span>
    );
  if (candidate.status === 'completed' && candidate.thumbnail_url) {
    return (
      <>
        <img src={candidate.thumbnail_url} alt="" loading="lazy" decoding="async" draggable={false} />
        {rank}
      </>
    );
  }
  return (
    <>
      <span className="cg-thumb__state">{t(`collections.grid.imageState.${candidate.status}`)}</span>
      {rank}
    </>
  );
}

/** The candidate's accessible name: its number, and its rank by the model or its score. */
function candidateLabel(t: TFunction, candidate: CandidateView, number: number, score: string): string {
  if (candidate.model_rank !== null) return t('collections.grid.candidateRanked', { number, rank: candidate.model_rank });
  return t(score ? 'collections.grid.candidateScored' : 'collections.grid.candidate', { number, score });
}

export function CandidatesCell({ item, busy, onPick }: Props) {
  const { t, i18n } = useTranslation();
  if (!item.candidates.length) return null;
  const choosable = mayChangePick(item);
  const candidates = [...item.candidates].sort((a, b) => a.position - b.position);
  return (
    <ul className="cg-candidates" aria-label={t('collections.grid.candidatesOf', { code: item.code })}>
      {candidates.map((candidate, index) => {
        const picked = candidate.image_id === item.picked_image_id;
        const score = candidate.score === null ? '' : numberFormat(i18n.language, { maximumFractionDigits: 2, minimumFractionDigits: 2 }).format(candidate.score);
        const label = candidateLabel(t, candidate, index + 1, score);
        const className = `cg-thumb${picked ? ' cg-thumb--picked' : ''}${candidate.model_rank === null ? '' : ' cg-thumb--ranked'}`;
        return (
          <li key={candidate.image_id}>
            {choosable && candidate.status === 'completed' ? (
              <button
                type="button"
                className={className}
                aria-pressed={picked}
                aria-label={picked ? t('collections.grid.pickedLabel', { candidate: label }) : t('collections.grid.pickThis', { candidate: label })}
                disabled={busy || picked}
                onClick={() => onPick(candidate.image_id)}
                data-testid="candidate-pick"
                data-picked={picked}
              >
                <CandidateThumb candidate={candidate} />
              </button>
            ) : (
              <span className={className} role="img" aria-label={picked ? t('collections.grid.pickedLabel', { candidate: label }) : label} data-testid="candidate" data-picked={picked}>
                <CandidateThumb candidate={candidate} />
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
