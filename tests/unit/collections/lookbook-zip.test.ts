// @vitest-environment node
import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildLookbookZip, LookbookFetchError } from '../../../src/lib/zip/build-lookbook-zip';

/** A response whose body arrives in small chunks, as a slow network gives it. */
function chunked(text: string, status = 200): Response {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
      controller.close();
    },
  });
  return new Response(body, { status });
}

describe('the lookbook ZIP', () => {
  it('streams each file into the archive under its name; the bearer goes only to the API’s origin', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const fetchFile = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      seen.push({ url, auth: new Headers(init?.headers).get('authorization') });
      return chunked(`bytes of ${url}`);
    }) as typeof fetch;
    const progress: number[] = [];
    const blob = await buildLookbookZip(
      [
        { name: 'A1_真丝_pick.png', url: 'https://app.example/api/files/1/a.png' },
        { name: 'A1_真丝_video.mp4', url: 'https://bucket.s3.example/v.mp4?X-Amz-Signature=1' },
      ],
      { token: 'tok', apiOrigin: 'https://app.example' },
      { fetchFile, onProgress: (p) => progress.push(p.entriesDone) },
    );
    const files = unzipSync(new Uint8Array(await blob.arrayBuffer()));
    expect(Object.keys(files)).toEqual(['A1_真丝_pick.png', 'A1_真丝_video.mp4']);
    expect(strFromU8(files['A1_真丝_pick.png']!)).toBe('bytes of https://app.example/api/files/1/a.png');
    expect(seen.map((s) => s.auth)).toEqual(['Bearer tok', null]);
    expect(progress.at(-1)).toBe(2);
  });

  it('fails with the file’s name when the server refuses one, and stops when aborted', async () => {
    const refuse = (async () => chunked('gone', 410)) as typeof fetch;
    await expect(
      buildLookbookZip([{ name: 'x.png', url: 'https://app.example/x.png' }], { token: null, apiOrigin: 'https://app.example' }, { fetchFile: refuse }),
    ).rejects.toEqual(new LookbookFetchError('x.png', 410));
    const controller = new AbortController();
    controller.abort();
    await expect(
      buildLookbookZip([{ name: 'x.png', url: 'https://app.example/x.png' }], { token: null, apiOrigin: 'https://app.example' }, { signal: controller.signal }),
    ).rejects.toThrow();
  });
});
