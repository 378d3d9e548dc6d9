// Where the designer is in the eight steps, which are done, and a way back to any reached step.
import { useTranslation } from 'react-i18next';
import { STEPS, canOpen, stepIndex, type StepId } from '../model/workflow-steps';

interface Props {
  step: StepId;
  furthest: StepId;
  busy: boolean;
  onOpen: (step: StepId) => void;
}

export function WorkflowStepper({ step, furthest, busy, onOpen }: Props) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('videoGeneration.stepper.label')} className="vg-stepper">
      <ol>
        {STEPS.map((id, i) => {
          const current = id === step;
          const done = i < stepIndex(step) || (i <= stepIndex(furthest) && !current && i < stepIndex(furthest));
          const reachable = canOpen(id, furthest) && !busy;
          return (
            <li key={id} className={`vg-step${current ? ' vg-step--current' : ''}${done ? ' vg-step--done' : ''}`}>
              <button
                type="button"
                disabled={!reachable || current}
                aria-current={current ? 'step' : undefined}
                onClick={() => onOpen(id)}
                data-testid={`step-${id}`}
              >
                <span className="vg-step__num" aria-hidden="true">
                  {done ? '✓' : i + 1}
                </span>
                <span className="vg-step__label">{t(`videoGeneration.steps.${id}`)}</span>
                <span className="vg-visually-hidden">{done ? t('videoGeneration.stepper.done') : ''}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
