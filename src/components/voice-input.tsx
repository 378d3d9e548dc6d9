// A microphone button for text fields: dictated phrases are appended to the field's value.
import { useTranslation } from 'react-i18next';
import { MicIcon, StopIcon } from './icons';
import { useSpeechRecognition } from './use-speech-recognition';
import './voice-input.css';

interface Props {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}

export function VoiceInput({ value, onChange, disabled }: Props) {
  const { t, i18n } = useTranslation();
  const speech = useSpeechRecognition({
    lang: i18n.resolvedLanguage ?? 'zh-CN',
    onFinal: (text) => {
      if (text) onChange(value ? `${value.replace(/\s+$/, '')} ${text}` : text);
    },
  });
  const label = speech.listening ? t('voice.stop') : t('voice.start');
  return (
    <div className="voice-input">
      <button
        type="button"
        className={`voice-input__button${speech.listening ? ' voice-input__button--live' : ''}`}
        onClick={speech.listening ? speech.stop : speech.start}
        disabled={disabled}
        aria-pressed={speech.listening}
        aria-label={label}
        title={label}
      >
        {speech.listening ? <StopIcon size={18} /> : <MicIcon size={18} />}
      </button>
      <span className="voice-input__status" role="status" aria-live="polite">
        {speech.error ? (
          <span className="voice-input__error">{t(speech.error)}</span>
        ) : speech.listening ? (
          speech.interim || t('voice.listening')
        ) : null}
      </span>
    </div>
  );
}
