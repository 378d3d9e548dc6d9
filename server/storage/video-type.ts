// The type of a video by its bytes, as images are checked by theirs: a provider's declared type
// (or a file name) may be wrong, and what is stored is served under the type recorded here.
//   MP4 / QuickTime: an ISO base media file, a box "ftyp" at byte 4 whose major brand is "qt  "
//     for QuickTime; older QuickTime files start with another top-level atom instead (moov, mdat…).
//   WebM: an EBML header (1A 45 DF A3) whose DocType is "webm".

export type VideoType = 'video/mp4' | 'video/webm' | 'video/quicktime';

/** Top-level atoms a QuickTime file without "ftyp" may begin with. */
const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/** The video's type from its first bytes, or undefined when it is none of MP4, WebM and QuickTime. */
export function sniffVideoType(data: Buffer): VideoType | undefined {
  if (data.length < 12) return undefined;
  const box = data.toString('latin1', 4, 8);
  if (box === 'ftyp') return data.toString('latin1', 8, 12) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  if (QUICKTIME_ATOMS.has(box) && data.readUInt32BE(0) >= 8) return 'video/quicktime';
  if (data.readUInt32BE(0) === 0x1a45dfa3) {
    // The DocType element (42 82) sits in the header's first few dozen bytes.
    const header = data.subarray(4, 64);
    const at = header.indexOf(Buffer.from([0x42, 0x82]));
    if (at >= 0) {
      const size = header[at + 2]! & 0x7f;
      if (header.toString('latin1', at + 3, at + 3 + size) === 'webm') return 'video/webm';
    }
  }
  return undefined;
}
