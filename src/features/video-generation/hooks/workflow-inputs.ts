// What each run of the video workflow reads and writes; useWorkflowRuns hands the same values to
// every run, so a run's callbacks change only when these do.
import type { VideoDraft } from '../model/draft';
import type { ChoiceField } from '../../../../shared/fabric/fabric-fields';
import type { DraftUpdate } from './use-video-draft';

export interface WorkflowInputs {
  /** The draft with every change so far (a render may not have happened yet). */
  read: () => VideoDraft | null;
  update: DraftUpdate;
  /** The reader's language: the server writes its texts in it. */
  language: string;
  /** A preset's words in the reader's language, for the fabric facts sent with a request. */
  presetLabel: (field: ChoiceField, key: string) => string;
}
