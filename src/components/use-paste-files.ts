// Images pasted anywhere on the page (a screenshot, a copied photo) are added like dropped ones.
// A paste without files stays text; a paste with files into a text field is left to the field
// unless the page also takes files from there (the workshop's mixed items do).
import { useEffect } from 'react';

export interface PasteFilesOptions {
  enabled?: boolean;
  /** Take files pasted into an input or text area too. */
  fromTextFields?: boolean;
}

export function usePasteFiles(onFiles: (files: File[]) => void, options: PasteFilesOptions = {}): void {
  const { enabled = true, fromTextFields = false } = options;
  useEffect(() => {
    if (!enabled) return;
    const onPaste = (e: ClipboardEvent) => {
      const target = e.target as HTMLElement | null;
      const inTextField =
        target !== null && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable);
      if (inTextField && !fromTextFields) return;
      const files = [...(e.clipboardData?.files ?? [])];
      if (files.length === 0) return;
      e.preventDefault();
      onFiles(files);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [onFiles, enabled, fromTextFields]);
}
