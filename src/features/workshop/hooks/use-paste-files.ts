// Images pasted anywhere on the page (a screenshot, a copied photo) are added like dropped ones;
// a paste into a text field stays text.
import { useEffect } from 'react';

export function usePasteFiles(onFiles: (files: File[]) => void, enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    const onPaste = (e: ClipboardEvent) => {
      const files = [...(e.clipboardData?.files ?? [])];
      if (files.length === 0) return;
      e.preventDefault();
      onFiles(files);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [onFiles, enabled]);
}
