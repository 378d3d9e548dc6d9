// Spec §2's viewer shortcuts: arrow keys rotate, Esc closes, R resets; +/- zoom as well. While
// the user types in the copy field only Esc applies, so typing "r" does not reset the view.

export type ViewerAction = 'close' | 'rotateLeft' | 'rotateRight' | 'reset' | 'zoomIn' | 'zoomOut';

export function viewerActionForKey(key: string, typing: boolean): ViewerAction | null {
  if (key === 'Escape') return 'close';
  if (typing) return null;
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowUp':
      return 'rotateLeft';
    case 'ArrowRight':
    case 'ArrowDown':
      return 'rotateRight';
    case 'r':
    case 'R':
    case '0':
      return 'reset';
    case '+':
    case '=':
      return 'zoomIn';
    case '-':
    case '_':
      return 'zoomOut';
    default:
      return null;
  }
}

/** Whether a key event comes from a place where the user is typing text. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as Element;
  return !!element.closest('textarea, input, select, [contenteditable="true"]');
}
