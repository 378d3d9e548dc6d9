// The grid's columns in order: the fabric (kept in view at the left while the stages scroll
// sideways), one per stage, and the row's commands (kept in view at the right). Widths are fixed so every row lines up without measuring.
import { STAGES, type Stage } from '../../../../../shared/collections/collection-types';

export type GridColumn = 'fabric' | Stage | 'actions';

export const GRID_COLUMNS: readonly GridColumn[] = ['fabric', ...STAGES, 'actions'];

export const COLUMN_WIDTHS: Record<GridColumn, number> = {
  fabric: 188,
  analysis: 104,
  // Three thumbnails a line, two lines: the six candidates a fabric may have.
  candidates: 172,
  pick: 156,
  video_prompts: 140,
  video: 120,
  actions: 200,
};

export const GRID_TEMPLATE = GRID_COLUMNS.map((c) => `${COLUMN_WIDTHS[c]}px`).join(' ');
export const GRID_WIDTH = GRID_COLUMNS.reduce((sum, c) => sum + COLUMN_WIDTHS[c], 0);

/** Every row is this tall: two rows of touch-sized buttons, or a thumbnail with two lines under it. */
export const ROW_HEIGHT = 124;
export const HEADER_HEIGHT = 44;
