import { describe, expect, it } from 'vitest';
import { avcProfileName, readMp4Facts, videoTrack } from '../../../../server/providers/local/mp4-facts.js';

// A hand-made MP4 with the boxes a player reads, laid out as in ISO/IEC 14496-12.
const u8 = (v: number) => Buffer.from([v & 255]);
const u16 = (v: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(v);
  return b;
};
const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);
  return b;
};
const u64 = (v: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(v));
  return b;
};
const zeros = (n: number) => Buffer.alloc(n);
const text = (s: string) => Buffer.from(s, 'latin1');

function box(type: string, ...parts: Buffer[]): Buffer {
  const payload = Buffer.concat(parts);
  return Buffer.concat([u32(8 + payload.length), text(type), payload]);
}

function largeBox(type: string, ...parts: Buffer[]): Buffer {
  const payload = Buffer.concat(parts);
  return Buffer.concat([u32(1), text(type), u64(16 + payload.length), payload]);
}

function fullBox(type: string, version: number, ...parts: Buffer[]): Buffer {
  return box(type, u8(version), zeros(3), ...parts);
}

interface Layout {
  version?: 0 | 1;
  mdatFirst?: boolean;
  largeMdat?: boolean;
}

function makeMp4({ version = 0, mdatFirst = false, largeMdat = false }: Layout = {}): Buffer {
  const times = (timescale: number, duration: number) =>
    version === 1 ? [u64(0), u64(0), u32(timescale), u64(duration)] : [u32(0), u32(0), u32(timescale), u32(duration)];
  const mvhd = fullBox('mvhd', version, ...times(1000, 2000), zeros(80));
  const tkhdTimes = version === 1 ? [u64(0), u64(0), u32(1), zeros(4), u64(2000)] : [u32(0), u32(0), u32(1), zeros(4), u32(2000)];
  const tkhd = fullBox('tkhd', version, ...tkhdTimes, zeros(8), zeros(8), zeros(36), u32(320 << 16), u32(240 << 16));
  const mdhd = fullBox('mdhd', version, ...times(12800, 25600), zeros(4));
  const hdlr = fullBox('hdlr', 0, zeros(4), text('vide'), zeros(12), text('VideoHandler\0'));
  const avcC = box('avcC', u8(1), u8(100), u8(0), u8(30), u8(0xff), u8(0xe0));
  const avc1 = box('avc1', zeros(6), u16(1), zeros(16), u16(320), u16(240), zeros(50), avcC);
  const stsd = fullBox('stsd', 0, u32(1), avc1);
  const stts = fullBox('stts', 0, u32(1), u32(50), u32(512));
  const stsz = fullBox('stsz', 0, u32(0), u32(50), zeros(50 * 4));
  const trak = box('trak', tkhd, box('mdia', mdhd, hdlr, box('minf', box('stbl', stsd, stts, stsz))));
  const moov = box('moov', mvhd, trak);
  const ftyp = box('ftyp', text('isom'), u32(512), text('isom'), text('avc1'));
  const mdat = largeMdat ? largeBox('mdat', zeros(64)) : box('mdat', zeros(64));
  return Buffer.concat(mdatFirst ? [ftyp, mdat, moov] : [ftyp, moov, mdat]);
}

describe('MP4 facts', () => {
  it('reads duration, size, codec, frame count and frame rate', () => {
    const facts = readMp4Facts(makeMp4());
    expect(facts.majorBrand).toBe('isom');
    expect(facts.brands).toEqual(['isom', 'avc1']);
    expect(facts.timescale).toBe(1000);
    expect(facts.durationSeconds).toBe(2);
    expect(facts.fastStart).toBe(true);
    const video = videoTrack(facts);
    expect(video).toMatchObject({
      id: 1,
      handler: 'vide',
      codec: 'avc1',
      width: 320,
      height: 240,
      codedWidth: 320,
      codedHeight: 240,
      timescale: 12800,
      durationSeconds: 2,
      sampleCount: 50,
      frameRate: 25,
      avcProfile: 100,
      avcLevel: 30,
    });
    expect(avcProfileName(video?.avcProfile)).toBe('High');
  });

  it('reads version 1 boxes and 64-bit box sizes', () => {
    const facts = readMp4Facts(makeMp4({ version: 1, largeMdat: true }));
    expect(facts.durationSeconds).toBe(2);
    expect(videoTrack(facts)).toMatchObject({ id: 1, width: 320, height: 240, durationSeconds: 2, sampleCount: 50 });
  });

  it('tells whether the index comes before the media data', () => {
    expect(readMp4Facts(makeMp4({ mdatFirst: true })).fastStart).toBe(false);
  });

  it('refuses what is not a whole MP4', () => {
    const whole = makeMp4();
    expect(() => readMp4Facts(whole.subarray(0, whole.length - 100))).toThrow(/bad size|truncated/);
    expect(() => readMp4Facts(Buffer.from('not a video at all, just text'))).toThrow();
    expect(() => readMp4Facts(new Uint8Array(0))).toThrow(/not an MP4/);
  });
});
