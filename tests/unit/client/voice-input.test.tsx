import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VoiceInput } from '../../../src/components/voice-input';
import type { SpeechRecognitionLike } from '../../../src/components/speech-recognition';
import { changeLanguage, i18n, initI18n } from '../../../src/i18n/i18n';

// A stand-in for the browser's recognition object, driven by the test.
class FakeRecognition implements SpeechRecognitionLike {
  static last: FakeRecognition | null = null;
  lang = '';
  continuous = false;
  interimResults = false;
  onresult: SpeechRecognitionLike['onresult'] = null;
  onerror: SpeechRecognitionLike['onerror'] = null;
  onend: SpeechRecognitionLike['onend'] = null;
  onstart: SpeechRecognitionLike['onstart'] = null;
  constructor() {
    FakeRecognition.last = this;
  }
  start() {
    this.onstart?.();
  }
  stop() {
    this.onend?.();
  }
  abort() {
    this.onend?.();
  }
  say(text: string, isFinal: boolean) {
    const result = Object.assign([{ transcript: text }], { isFinal });
    this.onresult?.({ resultIndex: 0, results: Object.assign([result], { length: 1 }) });
  }
}

function Field() {
  const [value, setValue] = useState('silk');
  return (
    <I18nextProvider i18n={i18n}>
      <output data-testid="value">{value}</output>
      <VoiceInput value={value} onChange={setValue} />
    </I18nextProvider>
  );
}

beforeAll(async () => {
  await initI18n();
  await changeLanguage('en-US');
});

afterEach(() => {
  cleanup();
  delete (window as { webkitSpeechRecognition?: unknown }).webkitSpeechRecognition;
});

describe('voice input', () => {
  it('start, listening, final phrase appended, stop', () => {
    (window as { webkitSpeechRecognition?: unknown }).webkitSpeechRecognition = FakeRecognition;
    render(<Field />);
    fireEvent.click(screen.getByRole('button', { name: 'Start voice input' }));
    expect(screen.getByText('Listening…')).toBeTruthy();
    expect(FakeRecognition.last?.lang).toBe('en-US');
    act(() => FakeRecognition.last?.say('with lace', true));
    expect(screen.getByTestId('value').textContent).toBe('silk with lace');
    fireEvent.click(screen.getByRole('button', { name: 'Stop voice input' }));
    expect(screen.getByRole('button', { name: 'Start voice input' })).toBeTruthy();
  });

  it('explains a denied microphone', () => {
    (window as { webkitSpeechRecognition?: unknown }).webkitSpeechRecognition = FakeRecognition;
    render(<Field />);
    fireEvent.click(screen.getByRole('button', { name: 'Start voice input' }));
    act(() => FakeRecognition.last?.onerror?.({ error: 'not-allowed' }));
    expect(screen.getByText('Microphone permission denied')).toBeTruthy();
  });

  it('says when the browser has no speech recognition', () => {
    render(<Field />);
    fireEvent.click(screen.getByRole('button', { name: 'Start voice input' }));
    expect(screen.getByText('Voice input is not supported in this browser')).toBeTruthy();
  });
});
