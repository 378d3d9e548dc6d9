// The signed-in user's outbox items as React state, kept current as the outbox changes: the
// prompts page lists them, the connection badge counts the ones still waiting.
import { useCallback, useEffect, useState } from 'react';
import type { OutboxRecord } from '../db/schema';
import { outbox } from './app-outbox';

export function useOutboxItems(userKey: string | null): {
  items: OutboxRecord[];
  discard: (seq: number) => Promise<void>;
} {
  const [items, setItems] = useState<OutboxRecord[]>([]);
  useEffect(() => {
    if (!userKey) return undefined;
    let live = true;
    const load = () => void outbox.list(userKey).then((list) => live && setItems(list));
    load();
    const stop = outbox.subscribe(load);
    return () => {
      live = false;
      stop();
    };
  }, [userKey]);
  const discard = useCallback((seq: number) => outbox.discard(seq), []);
  return { items: userKey ? items : [], discard };
}
