// config.json's optional tus endpoint: made absolute like the api URLs; absent or unusable means
// the files go in the multipart calls. The upload id is the upload URL's last path segment.
import { describe, expect, it } from 'vitest';
import { tusEndpoint, type RuntimeConfig } from '../../../src/lib/api/runtime-config';
import { uploadIdOf } from '../../../src/lib/upload/tus-upload';

const api = { main: '/api', image: '/image-api', upscale: '/upscale-api', third: '/third-api' };

describe('tus endpoint from config.json', () => {
  it('is absolute against the page, and absent without uploads.tus', () => {
    const base = 'https://fair.example/app/';
    expect(tusEndpoint({ api, version: '1', uploads: { tus: '/api/uploads/' } }, base)).toBe('https://fair.example/api/uploads/');
    expect(tusEndpoint({ api, version: '1', uploads: { tus: 'https://files.example/tus/' } }, base)).toBe('https://files.example/tus/');
    expect(tusEndpoint({ api, version: '1' }, base)).toBeUndefined();
    expect(tusEndpoint({ api, version: '1', uploads: { tus: '' } }, base)).toBeUndefined();
    expect(tusEndpoint({ api, version: '1', uploads: { tus: 5 } } as unknown as RuntimeConfig, base)).toBeUndefined();
  });

  it('reads the upload id from the upload URL', () => {
    expect(uploadIdOf('https://fair.example/api/uploads/9676c037')).toBe('9676c037');
    expect(uploadIdOf('/api/uploads/abc/')).toBe('abc');
  });
});
