// The kept-videos settings rows: each choice row lists its choices in words and saves the one picked.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KeptVideosSettings } from '../../../src/features/settings/components/kept-videos-settings';
import { changeLanguage, i18n, initI18n } from '../../../src/i18n/i18n';

function renderSettings() {
  return render(
    <I18nextProvider i18n={i18n}>
      <KeptVideosSettings />
    </I18nextProvider>,
  );
}

const optionTexts = (select: HTMLElement) => [...select.querySelectorAll('option')].map((o) => o.textContent);

describe('KeptVideosSettings', () => {
  beforeAll(async () => {
    await initI18n();
    await changeLanguage('en-US');
  });
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('lists the budgets and the "keep the newest" choices, with the saved ones selected', () => {
    renderSettings();
    const budget = screen.getByTestId('kept-videos-budget') as HTMLSelectElement;
    const latest = screen.getByTestId('kept-videos-latest') as HTMLSelectElement;
    expect(budget.id).toBe('kept-videos-budget');
    expect(budget.value).toBe('500');
    expect(optionTexts(budget)).toHaveLength(5);
    expect(latest.value).toBe('0');
    expect(optionTexts(latest)[0]).toBe(i18n.t('settings.keptVideos.latestOff'));
    expect(optionTexts(latest)[2]).toBe(i18n.t('settings.keptVideos.latestN', { count: 3 }));
    expect(screen.getByLabelText(i18n.t('settings.keptVideos.latest'))).toBe(latest);
  });

  it('saves the choice picked in either row', async () => {
    renderSettings();
    await act(async () => {
      fireEvent.change(screen.getByTestId('kept-videos-latest'), { target: { value: '5' } });
    });
    await act(async () => {
      fireEvent.change(screen.getByTestId('kept-videos-budget'), { target: { value: '1000' } });
    });
    expect(JSON.parse(localStorage.getItem('keptVideos') ?? 'null')).toEqual({ budgetMb: 1000, latest: 5 });
    expect((screen.getByTestId('kept-videos-latest') as HTMLSelectElement).value).toBe('5');
  });
});
