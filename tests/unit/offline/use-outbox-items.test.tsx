// The outbox items as React state: a user's items appear as they are queued and go when
// discarded; another user's never show, and no user means no items.
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxRecord } from '../../../src/lib/db/schema';
import { outbox } from '../../../src/lib/offline/app-outbox';
import { useOutboxItems } from '../../../src/lib/offline/use-outbox-items';

let seen: { items: OutboxRecord[]; discard: (seq: number) => Promise<void> } | undefined;
function Probe({ userKey }: { userKey: string | null }) {
  seen = useOutboxItems(userKey);
  return null;
}

describe('useOutboxItems', () => {
  afterEach(() => cleanup());

  it("follows the user's outbox as items are queued and discarded", async () => {
    render(<Probe userKey="u-hook-1" />);
    await act(async () => {
      await outbox.enqueue('u-hook-1', 'test-kind', { n: 1 });
      await outbox.enqueue('u-hook-other', 'test-kind', { n: 2 });
    });
    await waitFor(() => expect(seen?.items.map((i) => i.payload)).toEqual([{ n: 1 }]));
    expect(seen!.items[0]!.state).toBe('pending');
    await act(async () => {
      await seen!.discard(seen!.items[0]!.seq!);
    });
    await waitFor(() => expect(seen?.items).toEqual([]));
  });

  it('has no items without a signed-in user', () => {
    render(<Probe userKey={null} />);
    expect(seen?.items).toEqual([]);
  });
});
