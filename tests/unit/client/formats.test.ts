import { afterEach, describe, expect, it, vi } from 'vitest';
import { dateFormat, numberFormat, warmFormats } from '../../../src/i18n/formats';

describe('formats', () => {
  afterEach(() => vi.useRealTimers());

  it('makes one formatter per language and options, and formats as Intl does', () => {
    const a = dateFormat('en-US', { dateStyle: 'medium' });
    expect(dateFormat('en-US', { dateStyle: 'medium' })).toBe(a);
    expect(dateFormat('vi-VN', { dateStyle: 'medium' })).not.toBe(a);
    expect(dateFormat('en-US', { dateStyle: 'full' })).not.toBe(a);
    const when = new Date(Date.UTC(2026, 10, 27, 12));
    expect(a.format(when)).toBe(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(when));
    const n = numberFormat('en-US', { maximumFractionDigits: 1 });
    expect(numberFormat('en-US', { maximumFractionDigits: 1 })).toBe(n);
    expect(n.format(1234.56)).toBe('1,234.6');
  });

  it('loads a language once, one step per task, after the caller returns', () => {
    vi.useFakeTimers();
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    const compare = vi.spyOn(String.prototype, 'localeCompare');
    warmFormats('th-TH');
    warmFormats('th-TH');
    expect(made).not.toHaveBeenCalled();
    vi.advanceTimersToNextTimer();
    expect(made).toHaveBeenCalledTimes(1);
    expect(compare).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(compare).toHaveBeenCalledTimes(1);
    // The page's own formatter is the one made beforehand.
    expect(dateFormat('th-TH', { dateStyle: 'medium', timeStyle: 'short' })).toBe(made.mock.results[0]!.value);
    made.mockRestore();
    compare.mockRestore();
  });
});
