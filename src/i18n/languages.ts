// The interface languages come from the list both runtimes share.
export {
  FALLBACK_LANGUAGE,
  LANGUAGE_NAMES,
  SUPPORTED_LANGUAGES,
  isLanguage,
  type Language,
} from '../../shared/i18n/languages';
