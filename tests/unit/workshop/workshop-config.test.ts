// Config rules: percents 0..100 sent as 0..1, four styles, the model one the server offers (its
// default when the remembered one is gone), remembered per user and read back defensively.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DRAFT,
  configStorageKey,
  loadDraft,
  parseDraft,
  percent,
  resolveModel,
  saveDraft,
  toRequestConfig,
} from '../../../src/features/workshop/model/workshop-config';
import { isCancelledItem, isRunning, typeOf, type WorkshopModel } from '../../../src/features/workshop/model/workshop-item';

const model = (id: string, isDefault = false, local = false): WorkshopModel => ({
  id,
  name: id,
  local_preview: local,
  default: isDefault,
  types: ['text', 'image', 'mixed'],
  styles: ['natural', 'creative', 'professional', 'artistic'],
});
const MODELS = [model('gemini', true), model('local', false, true)];

describe('workshop config', () => {
  it('clamps and rounds percents', () => {
    expect(percent(150, 50)).toBe(100);
    expect(percent(-3, 50)).toBe(0);
    expect(percent(33.4, 50)).toBe(33);
    expect(percent('80', 50)).toBe(50);
    expect(percent(Number.NaN, 40)).toBe(40);
  });

  it('keeps a chosen model the server still offers, else its default, else the first', () => {
    expect(resolveModel('local', MODELS)).toBe('local');
    expect(resolveModel('openai', MODELS)).toBe('gemini');
    expect(resolveModel(null, MODELS)).toBe('gemini');
    expect(resolveModel(null, [model('a'), model('b')])).toBe('a');
    expect(resolveModel('local', undefined)).toBe('local');
  });

  it('sends creativity and precision as 0..1 with the style and the resolved model', () => {
    expect(toRequestConfig({ model: 'gone', creativity: 80, precision: 25, style: 'artistic' }, MODELS)).toEqual({
      model: 'gemini',
      creativity: 0.8,
      precision: 0.25,
      style: 'artistic',
    });
    expect(toRequestConfig(DEFAULT_DRAFT, undefined)).toEqual({ creativity: 0.5, precision: 0.5, style: 'natural' });
  });

  it('reads a stored draft back defensively', () => {
    expect(parseDraft(null)).toEqual(DEFAULT_DRAFT);
    expect(parseDraft('not json')).toEqual(DEFAULT_DRAFT);
    expect(parseDraft('[1,2]')).toEqual({ ...DEFAULT_DRAFT });
    expect(parseDraft(JSON.stringify({ model: 'local', creativity: 300, precision: 10, style: 'weird' }))).toEqual({
      model: 'local',
      creativity: 100,
      precision: 10,
      style: 'natural',
    });
  });

  it('remembers the settings per user', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    const draft = { model: 'local', creativity: 70, precision: 90, style: 'professional' as const };
    saveDraft(storage, 'id:1', draft);
    expect(store.has(configStorageKey('id:1'))).toBe(true);
    expect(loadDraft(storage, 'id:1')).toEqual(draft);
    expect(loadDraft(storage, 'id:2')).toEqual(DEFAULT_DRAFT);
    expect(loadDraft(storage, null)).toEqual(DEFAULT_DRAFT);
    saveDraft(storage, null, draft);
    expect(store.size).toBe(1);
  });
});

describe('workshop item rules', () => {
  it('names the type from what the item holds', () => {
    expect(typeOf('copy', 0)).toBe('text');
    expect(typeOf('  ', 2)).toBe('image');
    expect(typeOf('copy', 1)).toBe('mixed');
    expect(typeOf('', 0)).toBeNull();
  });

  it('knows running and cancelled items', () => {
    expect(isRunning('pending')).toBe(true);
    expect(isRunning('processing')).toBe(true);
    expect(isRunning('completed')).toBe(false);
    expect(isCancelledItem({ status: 'error', error: { code: 'cancelled', message: '' } })).toBe(true);
    expect(isCancelledItem({ status: 'error', error: { code: 'safety', message: '' } })).toBe(false);
  });
});
