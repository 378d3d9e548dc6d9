// Rows of a detail dialog: a label, a value, and a copy button for text worth copying.
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { copyPlainText } from '../../../lib/clipboard';

/** Copies text; says how it went on the button itself too (a toast can sit behind a modal dialog). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (!outcome) return;
    const timer = setTimeout(() => setOutcome(null), 2500);
    return () => clearTimeout(timer);
  }, [outcome]);
  async function copy() {
    try {
      await copyPlainText(text);
      setOutcome('copied');
      toast.success(t('history.copied'));
    } catch {
      setOutcome('failed');
      toast.error(t('history.copyFailed'));
    }
  }
  return (
    <button
      type="button"
      className={`btn btn--ghost history-copy${outcome === 'failed' ? ' history-copy--failed' : ''}`}
      onClick={() => void copy()}
      aria-label={outcome ? undefined : t('history.copyWhat', { what: label })}
      aria-live="polite"
    >
      {outcome === 'copied' ? t('history.copied') : outcome === 'failed' ? t('history.copyFailed') : t('history.copy')}
    </button>
  );
}

interface FieldProps {
  label: string;
  value: ReactNode;
  /** Text to copy; a copy button shows when set and not empty. */
  copy?: string | null;
  testId?: string;
}

export function Field({ label, value, copy, testId }: FieldProps) {
  const { t } = useTranslation();
  const empty = value === null || value === undefined || value === '';
  return (
    <div className="history-field" data-testid={testId}>
      <dt>{label}</dt>
      <dd>
        <span className="history-field__value">{empty ? <span className="history-muted">{t('history.none')}</span> : value}</span>
        {copy ? <CopyButton text={copy} label={label} /> : null}
      </dd>
    </div>
  );
}

export function Thumbs({ urls, label }: { urls: { url: string | null; key: string }[]; label: string }) {
  const { t } = useTranslation();
  if (urls.length === 0) return <span className="history-muted">{t('history.none')}</span>;
  return (
    <span className="history-thumbs">
      {urls.map((u, i) =>
        u.url ? <img key={u.key} src={u.url} alt={`${label} ${i + 1}`} loading="lazy" /> : null,
      )}
    </span>
  );
}
