// The workshop's composer while an added item is still being kept on the device: the text typed
// meanwhile is the next item's and is never wiped when the save ends, one press adds one item,
// and an item that could not be added comes back into the composer.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ItemComposer } from '../../../src/features/workshop/components/item-composer';
import type { WorkshopType } from '../../../src/features/workshop/model/workshop-item';
import { changeLanguage, i18n, initI18n } from '../../../src/i18n/i18n';

type Added = { type: WorkshopType; text: string; files: File[] };

/** An onAdd whose saves end when the test says, as a slow IndexedDB write would. */
function slowAdd() {
  const added: Added[] = [];
  const pending: { resolve(): void; reject(error: Error): void }[] = [];
  const onAdd = (item: Added) =>
    new Promise<void>((resolve, reject) => {
      added.push(item);
      pending.push({ resolve, reject });
    });
  return { added, pending, onAdd };
}

function renderComposer(onAdd: (item: Added) => Promise<void>): void {
  render(
    <I18nextProvider i18n={i18n}>
      <ItemComposer onAdd={onAdd} />
    </I18nextProvider>,
  );
}

const textField = () => screen.getByTestId<HTMLTextAreaElement>('workshop-text');
const type = (value: string) => fireEvent.change(textField(), { target: { value } });
const add = () => fireEvent.click(screen.getByTestId('workshop-add'));

beforeAll(async () => {
  await initI18n();
  await changeLanguage('en-US');
});

afterEach(cleanup);

describe('the workshop composer', () => {
  it('keeps what is typed while the previous item is still being saved', async () => {
    const { added, pending, onAdd } = slowAdd();
    renderComposer(onAdd);
    type('Slow two');
    add();
    expect(textField().value).toBe('');
    type('Third in line');
    await act(async () => pending[0]!.resolve());
    expect(textField().value).toBe('Third in line');
    add();
    await act(async () => pending[1]!.resolve());
    expect(added.map((a) => a.text)).toEqual(['Slow two', 'Third in line']);
  });

  it('adds an item once however often the button is pressed', async () => {
    const { added, pending, onAdd } = slowAdd();
    renderComposer(onAdd);
    type('Rose voile');
    add();
    add();
    await act(async () => pending.forEach((p) => p.resolve()));
    expect(added.map((a) => a.text)).toEqual(['Rose voile']);
    expect(screen.getByRole('alert').textContent).toBe('Enter the text to enhance.');
  });

  it('gives an item that could not be added back to the composer, with the reason', async () => {
    const { pending, onAdd } = slowAdd();
    renderComposer(onAdd);
    type('Linen twill');
    add();
    expect(textField().value).toBe('');
    await act(async () =>
      pending[0]!.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')),
    );
    expect(textField().value).toBe('Linen twill');
    expect(screen.getByRole('alert').textContent).toBe(
      'This device has no room left to keep the item. Free some space in Settings and add it again.',
    );
  });

  it('keeps the next item being typed when the previous one could not be added', async () => {
    const { pending, onAdd } = slowAdd();
    renderComposer(onAdd);
    type('Linen twill');
    add();
    type('Rose voile');
    await act(async () => pending[0]!.reject(new Error('The database connection is closing.')));
    expect(textField().value).toBe('Rose voile');
    expect(screen.getByRole('alert').textContent).toBe(
      'The item could not be kept on this device. Add it again.',
    );
  });
});
