// Downloads a signed file link as a file on the device (fetch, then a temporary object URL), so a
// failure can be told instead of the browser opening an error page.
export async function downloadFile(url: string, fileName: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** The file name a signed link ends with (/files/{id}/{name}?…), else the fallback. */
export function fileNameOf(url: string, fallback: string): string {
  try {
    const last = new URL(url, 'http://x').pathname.split('/').pop();
    return last ? decodeURIComponent(last) : fallback;
  } catch {
    return fallback;
  }
}

/** Processing time as "1 min 5 s" parts: minutes and seconds. */
export function durationParts(ms: number): { minutes: number; seconds: number } {
  const total = Math.max(0, Math.round(ms / 1000));
  return { minutes: Math.floor(total / 60), seconds: total % 60 };
}
