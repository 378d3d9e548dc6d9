// The modal shell of the image and video detail dialogs: <dialog> gives the focus trap, Esc and
// the inert background; a close button and a scrolling body.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId: string;
}

export function DetailDialog({ title, onClose, children, testId }: Props) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className="history-dialog"
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="history-dialog__frame">
        <header className="history-dialog__header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="btn btn--ghost history-dialog__close" onClick={onClose} aria-label={t('history.close')}>
            ✕
          </button>
        </header>
        <div className="history-dialog__body">{children}</div>
      </div>
    </dialog>
  );
}
