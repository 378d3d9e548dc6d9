// Browser speech recognition as a hook: start, stop, listening, error (spec §2 voice input).
// Final phrases are handed to the caller; the interim phrase is exposed for live feedback.
import { useCallback, useEffect, useRef, useState } from 'react';
import { speechRecognitionConstructor, type SpeechRecognitionLike } from './speech-recognition';

export type SpeechErrorKey = 'voice.unsupported' | 'voice.permissionDenied' | 'voice.recognitionError';

interface Options {
  lang: string;
  onFinal: (text: string) => void;
}

export function useSpeechRecognition({ lang, onFinal }: Options) {
  const [listening, setListening] = useState(false);
  const [interim, setInterim] = useState('');
  const [error, setError] = useState<SpeechErrorKey | null>(null);
  const recognition = useRef<SpeechRecognitionLike | null>(null);
  const onFinalRef = useRef(onFinal);
  useEffect(() => {
    onFinalRef.current = onFinal;
  }, [onFinal]);
  const supported = speechRecognitionConstructor() !== undefined;

  const stop = useCallback(() => {
    recognition.current?.stop();
  }, []);

  const start = useCallback(() => {
    const Recognition = speechRecognitionConstructor();
    if (!Recognition) {
      setError('voice.unsupported');
      return;
    }
    recognition.current?.abort();
    const r = new Recognition();
    r.lang = lang;
    r.continuous = true;
    r.interimResults = true;
    r.onstart = () => setListening(true);
    r.onresult = (event) => {
      let pending = '';
      for (let i = event.resultIndex; i < event.results.length; i += 1) {
        const result = event.results[i];
        const text = result?.[0]?.transcript ?? '';
        if (result?.isFinal) onFinalRef.current(text.trim());
        else pending += text;
      }
      setInterim(pending);
    };
    r.onerror = (event) => {
      // "aborted" and "no-speech" are the user stopping or pausing, not failures.
      if (event.error === 'aborted' || event.error === 'no-speech') return;
      setError(event.error === 'not-allowed' || event.error === 'service-not-allowed' ? 'voice.permissionDenied' : 'voice.recognitionError');
    };
    r.onend = () => {
      setListening(false);
      setInterim('');
    };
    recognition.current = r;
    setError(null);
    try {
      r.start();
    } catch {
      setError('voice.recognitionError');
    }
  }, [lang]);

  useEffect(() => () => recognition.current?.abort(), []);

  return { supported, listening, interim, error, start, stop };
}
