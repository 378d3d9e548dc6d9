// What the built-in text polish changed, one line per change ("chifon" → "chiffon", spelling),
// which dictionary checked the spelling, or plainly that the text's language has none, and the
// words it did not know and left as written.
import { useTranslation } from 'react-i18next';
import type { TextChanges as Changes } from '../model/workshop-item';

const RULES = ['spelling', 'capitalisation', 'final-stop', 'whitespace', 'punctuation-width', 'cjk-latin-spacing', 'full-width-alphanumerics', 'fabric-terms', 'percent-spacing'] as const;
const LANGUAGES = ['zh-CN', 'en-US', 'vi-VN', 'th-TH', 'id-ID'] as const;

/** Spaces and line breaks made visible, so a spacing fix shows what it removed. */
function visible(text: string): string {
  return text.replace(/\r?\n/g, '↵').replace(/[ \t\u00a0\u3000]/g, '·');
}

export function TextChangesView({ changes }: { changes: Changes }) {
  const { t } = useTranslation();
  const language = (code: string) => (LANGUAGES as readonly string[]).includes(code) ? t(`workshop.changes.language.${code}`) : code;
  const rule = (name: string) => ((RULES as readonly string[]).includes(name) ? t(`workshop.changes.rule.${name}`) : name);
  return (
    <section className="ws-changes" data-testid="workshop-text-changes" aria-label={t('workshop.changes.title')}>
      <h4>{t('workshop.changes.title')}</h4>
      <p className="ws-changes__spelling" data-testid="workshop-spelling">
        {changes.spelling.checked
          ? t('workshop.changes.checkedWith', { language: language(changes.spelling.dictionary) })
          : t('workshop.changes.noDictionary', { language: language(changes.spelling.language) })}
      </p>
      {changes.changes.length === 0 ? (
        <p data-testid="workshop-no-changes">{t('workshop.changes.none')}</p>
      ) : (
        <ol className="ws-changes__list">
          {changes.changes.map((c, i) => (
            <li key={i} data-testid="workshop-change">
              <del>{visible(c.from)}</del> → <ins>{visible(c.to)}</ins> <span className="ws-changes__rule">({rule(c.rule)})</span>
            </li>
          ))}
        </ol>
      )}
      {changes.unknown.length > 0 ? (
        <p data-testid="workshop-unknown-words">{t('workshop.changes.unknown', { words: changes.unknown.join(', ') })}</p>
      ) : null}
    </section>
  );
}
