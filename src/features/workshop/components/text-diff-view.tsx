// The original and the enhanced text side by side, removed words struck on the left and added
// words marked on the right (ins/del, so screen readers say what changed).
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { diffTexts, sides, type DiffPart } from '../model/text-diff';

function Side({ parts }: { parts: DiffPart[] }) {
  return (
    <>
      {parts.map((p, i) =>
        p.kind === 'removed' ? (
          <del key={i}>{p.text}</del>
        ) : p.kind === 'added' ? (
          <ins key={i}>{p.text}</ins>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}

export function TextDiffView({ before, after }: { before: string; after: string }) {
  const { t } = useTranslation();
  const { left, right } = useMemo(() => sides(diffTexts(before, after)), [before, after]);
  return (
    <div className="ws-diff" data-testid="workshop-diff">
      <figure className="ws-diff__side">
        <figcaption>{t('workshop.result.original')}</figcaption>
        <p className="ws-diff__text">
          <Side parts={left} />
        </p>
      </figure>
      <figure className="ws-diff__side">
        <figcaption>{t('workshop.result.enhanced')}</figcaption>
        <p className="ws-diff__text">
          <Side parts={right} />
        </p>
      </figure>
    </div>
  );
}
