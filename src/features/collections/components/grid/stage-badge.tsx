// A stage's state in words for one row (done, running 40 %, waiting for review, failed …).
import { useTranslation } from 'react-i18next';
import type { StageState } from '../../model/collection-stage-state';

export function StageBadge({ state, progress }: { state: StageState; progress?: number }) {
  const { t } = useTranslation();
  const showProgress = state === 'running' && progress !== undefined && progress > 0;
  return (
    <span className={`cg-stage cg-stage--${state}`} data-state={state}>
      {t(`collections.grid.stageState.${state}`)}
      {showProgress ? ` ${Math.round(progress)}%` : null}
    </span>
  );
}
