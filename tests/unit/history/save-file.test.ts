import { describe, expect, it } from 'vitest';
import { durationParts, fileNameOf } from '../../../src/features/history/model/save-file';
import { workflowLinkFor } from '../../../src/features/history/model/workflow-link';

describe('history helpers', () => {
  it('names a download after the signed link', () => {
    expect(fileNameOf('/api/files/abc/image-12.png?expires=1&sig=x', 'f.png')).toBe('image-12.png');
    expect(fileNameOf('http://h/api/files/abc/video-3.mp4?expires=1', 'f.mp4')).toBe('video-3.mp4');
    expect(fileNameOf('', 'fallback.png')).toBe('fallback.png');
  });

  it('splits processing time into minutes and seconds', () => {
    expect(durationParts(65_400)).toEqual({ minutes: 1, seconds: 5 });
    expect(durationParts(0)).toEqual({ minutes: 0, seconds: 0 });
    expect(durationParts(-5)).toEqual({ minutes: 0, seconds: 0 });
  });

  it('links "use these settings" to the video workflow with the item', () => {
    expect(workflowLinkFor('image', 7)).toBe('/video-generation?from=image:7');
    expect(workflowLinkFor('video', 3)).toBe('/video-generation?from=video:3');
  });
});
