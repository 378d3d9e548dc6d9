// An object URL for a Blob while the component shows it; views of the same Blob share one URL
// (see object-url-cache.ts), so moving a thumbnail from one list to another costs nothing.
import { useEffect } from 'react';
import { objectUrls } from '../../../lib/media/object-url-cache';

export function useObjectUrl(blob: Blob | null | undefined): string | null {
  const url = blob ? objectUrls.urlFor(blob) : null;
  useEffect(() => {
    if (!blob) return;
    objectUrls.hold(blob);
    return () => objectUrls.release(blob);
  }, [blob]);
  return url;
}
