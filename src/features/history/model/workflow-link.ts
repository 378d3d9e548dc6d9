// "Use these settings": the video workflow opened from a history item, which it pre-fills (a fork).
export function workflowLinkFor(kind: 'image' | 'video', id: number): string {
  return `/video-generation?from=${kind}:${id}`;
}
