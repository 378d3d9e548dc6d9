// The eight steps of spec §4's video workflow and the rules for moving between them: forward
// only when the step's input is complete, back to any step already reached without losing input.
export const STEPS = [
  'info',
  'prompt',
  'images',
  'select',
  'videoPrompts',
  'selectPrompts',
  'videos',
  'complete',
] as const;

export type StepId = (typeof STEPS)[number];

export function stepIndex(step: StepId): number {
  return STEPS.indexOf(step);
}

export interface StepFacts {
  imageCount: number;
  promptSelected: boolean;
  promptText: string;
  candidateCount: number;
  selectedImages: number;
  videoPromptCount: number;
  selectedPrompts: number;
  videoCount: number;
  videosFinished: boolean;
}

/** Why the designer cannot leave this step forward yet, or null. */
export function blockerOf(step: StepId, facts: StepFacts): string | null {
  switch (step) {
    case 'info':
      return facts.imageCount > 0 ? null : 'needImages';
    case 'prompt':
      if (!facts.promptSelected) return 'needPrompt';
      return facts.promptText.trim() ? null : 'needPromptText';
    case 'images':
      return facts.candidateCount > 0 ? null : 'needCandidates';
    case 'select':
      return facts.selectedImages > 0 ? null : 'needSelection';
    case 'videoPrompts':
      return facts.videoPromptCount > 0 ? null : 'needVideoPrompts';
    case 'selectPrompts':
      return facts.selectedPrompts > 0 ? null : 'needPromptSelection';
    case 'videos':
      return facts.videoCount > 0 && facts.videosFinished ? null : 'needVideos';
    case 'complete':
      return 'last';
  }
}

/** A step can be opened if it is the furthest reached or before it. */
export function canOpen(target: StepId, furthest: StepId): boolean {
  return stepIndex(target) <= stepIndex(furthest);
}

export function nextStep(step: StepId): StepId {
  return STEPS[Math.min(STEPS.length - 1, stepIndex(step) + 1)]!;
}

export function previousStep(step: StepId): StepId {
  return STEPS[Math.max(0, stepIndex(step) - 1)]!;
}

export function furthestOf(a: StepId, b: StepId): StepId {
  return stepIndex(a) >= stepIndex(b) ? a : b;
}
