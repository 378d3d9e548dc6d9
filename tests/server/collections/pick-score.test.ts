// The built-in pick rule on real images made by sharp: a sharp print in the pattern's colours
// beats a blurred one and one in other colours; the same images always give the same pick; a tie
// goes to the lower position.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detailOf, meanLab, pickJson, scoreCandidates } from '../../../server/modules/collections/pick-score.js';

const stripes = (a: string, b: string, size = 96, width = 8) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">${Array.from(
        { length: size / width },
        (_, i) => `<rect x="${i * width}" y="0" width="${width}" height="${size}" fill="${i % 2 ? a : b}"/>`,
      ).join('')}</svg>`,
    ),
  )
    .png()
    .toBuffer();
const solid = (colour: string) => sharp({ create: { width: 96, height: 96, channels: 3, background: colour } }).png().toBuffer();

describe('the built-in pick score', () => {
  it('measures detail from edges and colour from the mean Lab colour', async () => {
    expect(await detailOf(await solid('#808080'))).toBe(0);
    const crisp = await detailOf(await stripes('#d8342b', '#1f4e9c', 96, 4));
    const blurred = await detailOf(await sharp(await stripes('#d8342b', '#1f4e9c', 96, 4)).blur(4).toBuffer());
    expect(crisp).toBeGreaterThan(blurred);
    expect(crisp).toBeLessThanOrEqual(1);
    const [l, a, b] = await meanLab(await solid('#ffffff'));
    expect(l).toBeCloseTo(100, 0);
    expect(Math.abs(a!)).toBeLessThan(1);
    expect(Math.abs(b!)).toBeLessThan(1);
  });

  it('picks the sharp candidate in the pattern colours, the same way every time', async () => {
    const pattern = await stripes('#d8342b', '#1f4e9c');
    const right = await stripes('#d8342b', '#1f4e9c', 96, 6);
    const blurred = await sharp(right).blur(6).toBuffer();
    const otherColours = await stripes('#2ecc71', '#f1c40f', 96, 6);
    const candidates = [
      { image_id: 11, position: 0, data: blurred },
      { image_id: 12, position: 1, data: otherColours },
      { image_id: 13, position: 2, data: right },
    ];
    const first = await scoreCandidates(candidates, [pattern]);
    expect(first[0]!.image_id).toBe(13);
    expect(first.find((s) => s.image_id === 13)!.colour).toBeGreaterThan(first.find((s) => s.image_id === 12)!.colour);
    expect(first.find((s) => s.image_id === 13)!.detail).toBeGreaterThan(first.find((s) => s.image_id === 11)!.detail);
    for (const s of first) expect(s.score).toBeCloseTo(0.5 * s.detail + 0.5 * s.colour, 3);
    expect(await scoreCandidates(candidates, [pattern])).toEqual(first);
    const json = pickJson(first, { from: 'model', cause: 'no_ranker', reason: 'no text model' });
    expect(json).toMatchObject({ rule: 'score', measures: 'detail and colour match to the pattern', fallback: { from: 'model' } });
    expect(json.scores.map((s) => s.image_id)).toEqual(first.map((s) => s.image_id));
  });

  it('breaks a tie by the lower position, and lets detail decide without a pattern image', async () => {
    const same = await stripes('#d8342b', '#1f4e9c');
    const tie = await scoreCandidates(
      [
        { image_id: 7, position: 3, data: same },
        { image_id: 5, position: 1, data: same },
      ],
      [same],
    );
    expect(tie.map((s) => s.image_id)).toEqual([5, 7]);
    const noPattern = await scoreCandidates(
      [
        { image_id: 1, position: 0, data: await solid('#d8342b') },
        { image_id: 2, position: 1, data: same },
      ],
      [],
    );
    expect(noPattern.map((s) => [s.image_id, s.colour])).toEqual([
      [2, 0],
      [1, 0],
    ]);
  });
});
