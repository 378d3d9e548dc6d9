// Facts of an MP4 (ISO BMFF) file read from its boxes, without decoding: duration, tracks with
// their size, codec and sample (frame) count, and whether the index (moov) comes before the media
// data (+faststart, so a browser can start playing before the whole file is in). Pure: bytes in,
// facts out; throws on a file that is not a readable MP4.

export interface Mp4Track {
  id: number;
  /** 'vide', 'soun', ... */
  handler: string;
  /** Sample entry type: 'avc1', 'hvc1', 'mp4a', ... */
  codec: string;
  /** Presentation size from the track header. */
  width: number;
  height: number;
  /** Coded size from the sample entry (video only). */
  codedWidth?: number;
  codedHeight?: number;
  /** H.264 profile and level (from avcC). */
  avcProfile?: number;
  avcLevel?: number;
  timescale: number;
  durationSeconds: number;
  sampleCount: number;
  /** Frames per second from the sample timing, when it is constant. */
  frameRate?: number;
}

export interface Mp4Facts {
  majorBrand: string;
  brands: string[];
  timescale: number;
  durationSeconds: number;
  /** moov before mdat. */
  fastStart: boolean;
  tracks: Mp4Track[];
}

interface Box {
  type: string;
  /** Start of the payload (after the header). */
  start: number;
  end: number;
  offset: number;
}

class Reader {
  private readonly view: DataView;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  need(offset: number, length: number): void {
    if (offset < 0 || offset + length > this.bytes.length) throw new Error(`MP4 truncated at byte ${offset}`);
  }

  u8(o: number): number {
    this.need(o, 1);
    return this.view.getUint8(o);
  }

  u16(o: number): number {
    this.need(o, 2);
    return this.view.getUint16(o);
  }

  u32(o: number): number {
    this.need(o, 4);
    return this.view.getUint32(o);
  }

  u64(o: number): number {
    this.need(o, 8);
    return Number(this.view.getBigUint64(o));
  }

  fourcc(o: number): string {
    this.need(o, 4);
    return String.fromCharCode(...this.bytes.subarray(o, o + 4));
  }

  /** The boxes between start and end. */
  boxes(start: number, end: number): Box[] {
    const out: Box[] = [];
    let o = start;
    while (o + 8 <= end) {
      let size = this.u32(o);
      const type = this.fourcc(o + 4);
      let header = 8;
      if (size === 1) {
        size = this.u64(o + 8);
        header = 16;
      } else if (size === 0) {
        size = end - o;
      }
      if (size < header || o + size > end) throw new Error(`MP4 box '${type}' at byte ${o} has a bad size`);
      out.push({ type, start: o + header, end: o + size, offset: o });
      o += size;
    }
    return out;
  }
}

function child(r: Reader, box: Box, type: string): Box | undefined {
  return r.boxes(box.start, box.end).find((b) => b.type === type);
}

function path(r: Reader, box: Box, ...types: string[]): Box | undefined {
  let current: Box | undefined = box;
  for (const t of types) {
    if (!current) return undefined;
    current = child(r, current, t);
  }
  return current;
}

/** Version-dependent "timescale, duration" of mvhd and mdhd. */
function timing(r: Reader, box: Box): { timescale: number; duration: number } {
  const version = r.u8(box.start);
  return version === 1
    ? { timescale: r.u32(box.start + 20), duration: r.u64(box.start + 24) }
    : { timescale: r.u32(box.start + 12), duration: r.u32(box.start + 16) };
}

function readTrack(r: Reader, trak: Box): Mp4Track {
  const tkhd = child(r, trak, 'tkhd');
  if (!tkhd) throw new Error('MP4 track without tkhd');
  const tkVersion = r.u8(tkhd.start);
  const id = r.u32(tkhd.start + (tkVersion === 1 ? 20 : 12));
  // After the version-dependent times: reserved(8) layer(2) group(2) volume(2) reserved(2) matrix(36).
  const sizeAt = tkhd.start + (tkVersion === 1 ? 36 : 24) + 52;
  const width = r.u32(sizeAt) / 65536;
  const height = r.u32(sizeAt + 4) / 65536;

  const mdhd = path(r, trak, 'mdia', 'mdhd');
  const { timescale, duration } = mdhd ? timing(r, mdhd) : { timescale: 0, duration: 0 };
  const hdlr = path(r, trak, 'mdia', 'hdlr');
  const handler = hdlr ? r.fourcc(hdlr.start + 8) : '';
  const stbl = path(r, trak, 'mdia', 'minf', 'stbl');

  const track: Mp4Track = {
    id,
    handler,
    codec: '',
    width,
    height,
    timescale,
    durationSeconds: timescale ? duration / timescale : 0,
    sampleCount: 0,
  };
  if (!stbl) return track;

  const stsd = child(r, stbl, 'stsd');
  if (stsd && r.u32(stsd.start + 4) > 0) {
    const entryStart = stsd.start + 8;
    const entry = r.boxes(entryStart, stsd.end)[0];
    if (entry) {
      track.codec = entry.type;
      if (handler === 'vide') {
        // SampleEntry(8) + VisualSampleEntry fields up to width/height at +24 of the payload.
        track.codedWidth = r.u16(entry.start + 24);
        track.codedHeight = r.u16(entry.start + 26);
        const childrenStart = entry.start + 78;
        if (childrenStart <= entry.end) {
          const avcC = r.boxes(childrenStart, entry.end).find((b) => b.type === 'avcC');
          if (avcC) {
            track.avcProfile = r.u8(avcC.start + 1);
            track.avcLevel = r.u8(avcC.start + 3);
          }
        }
      }
    }
  }
  const stsz = child(r, stbl, 'stsz');
  if (stsz) track.sampleCount = r.u32(stsz.start + 8);
  else {
    const stz2 = child(r, stbl, 'stz2');
    if (stz2) track.sampleCount = r.u32(stz2.start + 8);
  }
  const stts = child(r, stbl, 'stts');
  if (stts && timescale) {
    const entries = r.u32(stts.start + 4);
    const deltas = new Set<number>();
    for (let i = 0; i < entries; i++) deltas.add(r.u32(stts.start + 8 + i * 8 + 4));
    const [delta] = [...deltas];
    if (deltas.size === 1 && delta) track.frameRate = timescale / delta;
  }
  return track;
}

/** Codec string-friendly name of an H.264 profile number. */
export function avcProfileName(profile: number | undefined): string | undefined {
  return profile === undefined
    ? undefined
    : ({ 66: 'Baseline', 77: 'Main', 88: 'Extended', 100: 'High', 110: 'High 10', 122: 'High 4:2:2', 244: 'High 4:4:4' } as Record<number, string>)[profile];
}

export function readMp4Facts(bytes: Uint8Array): Mp4Facts {
  const r = new Reader(bytes);
  const top = r.boxes(0, bytes.length);
  const ftyp = top.find((b) => b.type === 'ftyp');
  const moov = top.find((b) => b.type === 'moov');
  if (!ftyp || !moov) throw new Error('not an MP4: no ftyp or moov box');
  const mdat = top.find((b) => b.type === 'mdat');
  const majorBrand = r.fourcc(ftyp.start);
  const brands: string[] = [];
  for (let o = ftyp.start + 8; o + 4 <= ftyp.end; o += 4) brands.push(r.fourcc(o));
  const mvhd = child(r, moov, 'mvhd');
  if (!mvhd) throw new Error('MP4 moov without mvhd');
  const { timescale, duration } = timing(r, mvhd);
  const tracks = r
    .boxes(moov.start, moov.end)
    .filter((b) => b.type === 'trak')
    .map((trak) => readTrack(r, trak));
  return {
    majorBrand,
    brands,
    timescale,
    durationSeconds: timescale ? duration / timescale : 0,
    fastStart: mdat ? moov.offset < mdat.offset : true,
    tracks,
  };
}

/** The first video track, the one a player shows. */
export function videoTrack(facts: Mp4Facts): Mp4Track | undefined {
  return facts.tracks.find((t) => t.handler === 'vide');
}
