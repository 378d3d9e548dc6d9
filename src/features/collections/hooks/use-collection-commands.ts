// The page's commands with their busy state and their failure in the reader's language, kept at
// the page (not in the rows): the grid renders only the rows in view, and a row scrolled away and
// back still shows that its command is running or why it failed.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollectionView } from '../../../../shared/collections/collection-types';
import { isApiError } from '../../../lib/api';
import {
  postCollectionCommand,
  postItemCommand,
  type CollectionCommand,
  type RowCommand,
} from '../api/collection-commands';
import { collectionQueryKey } from '../api/collection-query';

export interface CommandState {
  /** The command on its way: a row command's kind, or the collection's. */
  busy: string | null;
  error: string | null;
}

const IDLE: CommandState = { busy: null, error: null };

export interface CollectionCommands {
  collection: CommandState;
  row(itemId: number): CommandState;
  runCollection(command: CollectionCommand): Promise<boolean>;
  runRow(itemId: number, command: RowCommand): Promise<boolean>;
  dismissRow(itemId: number): void;
  dismissCollection(): void;
}

/** `live`: the event stream is connected and will bring the moves; without it the view is read again. */
export function useCollectionCommands(id: number, live: boolean): CollectionCommands {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [collection, setCollection] = useState<CommandState>(IDLE);
  const [rows, setRows] = useState<ReadonlyMap<number, CommandState>>(new Map());
  const liveRef = useRef(live);
  liveRef.current = live;

  const messageOf = useCallback(
    (error: unknown) => (isApiError(error) && error.message ? error.message : t('collections.grid.commandFailed')),
    [t],
  );

  const afterCommand = useCallback(
    (status: CollectionView['status']) => {
      queryClient.setQueryData<CollectionView>(collectionQueryKey(id), (view) => (view ? { ...view, status } : view));
      if (!liveRef.current) void queryClient.invalidateQueries({ queryKey: collectionQueryKey(id) });
    },
    [id, queryClient],
  );

  const setRow = useCallback(
    (itemId: number, state: CommandState) =>
      setRows((current) => {
        if (!current.has(itemId) && state.busy === null && state.error === null) return current;
        const next = new Map(current);
        if (state.busy === null && state.error === null) next.delete(itemId);
        else next.set(itemId, state);
        return next;
      }),
    [],
  );

  const runCollection = useCallback(async (command: CollectionCommand) => {
    setCollection({ busy: command, error: null });
    try {
      const ref = await postCollectionCommand(id, command);
      afterCommand(ref.status);
      setCollection(IDLE);
      return true;
    } catch (error) {
      setCollection({ busy: null, error: messageOf(error) });
      return false;
    }
  }, [id, afterCommand, messageOf]);

  const runRow = useCallback(async (itemId: number, command: RowCommand) => {
    setRow(itemId, { busy: command.kind, error: null });
    try {
      const ref = await postItemCommand(id, itemId, command);
      afterCommand(ref.status);
      setRow(itemId, IDLE);
      return true;
    } catch (error) {
      setRow(itemId, { busy: null, error: messageOf(error) });
      return false;
    }
  }, [id, afterCommand, messageOf, setRow]);

  const row = useCallback((itemId: number) => rows.get(itemId) ?? IDLE, [rows]);
  const dismissRow = useCallback((itemId: number) => setRow(itemId, IDLE), [setRow]);
  const dismissCollection = useCallback(() => setCollection(IDLE), []);

  return { collection, row, runCollection, runRow, dismissRow, dismissCollection };
}
