import { describe, expect, it } from 'vitest';
import { tidyConfidence, tidyText } from '../../../../server/providers/local/text-tidy.js';

describe('text tidying', () => {
  it('trims and collapses whitespace, counting line endings once', () => {
    const r = tidyText('  line one   end \r\n\r\n\r\n\r\nline two\t\tend  ');
    expect(r.text).toBe('line one end\n\nline two end');
    expect(r.fixes.whitespace).toBeGreaterThanOrEqual(4);
    expect(tidyText('  indented\n    kept').text).toBe('indented\n    kept');
  });

  it('Chinese lines get full-width punctuation and a space beside Latin letters and digits', () => {
    expect(tidyText('这款面料采用Tencel混纺,手感柔软(适合夏季).').text).toBe('这款面料采用 Tencel 混纺，手感柔软（适合夏季）。');
    expect(tidyText('成分 : 棉 ， 麻').text).toBe('成分：棉，麻');
    // A decimal point and a full stop inside Latin text are not Chinese full stops.
    expect(tidyText('单价3.5元').text).toBe('单价 3.5 元');
    expect(tidyText('这是 cotton。下一句').count).toBe(0);
  });

  it('Latin lines get half-width punctuation', () => {
    expect(tidyText('Soft hand，breathable。Easy care！').text).toBe('Soft hand, breathable. Easy care!');
    expect(tidyText('Blend（cotton）, soft').text).toBe('Blend(cotton), soft');
    expect(tidyText('cotton , soft').text).toBe('cotton, soft');
    expect(tidyText('1,000 m, 3.5 USD').count).toBe(0);
  });

  it('full-width letters and digits become half-width', () => {
    expect(tidyText('规格：ＡＢ１２３，１５０ｃｍ宽幅').text).toBe('规格：AB123，150cm 宽幅');
  });

  it('normalises fabric terms', () => {
    expect(tidyText('180gsm').text).toBe('180 g/m²');
    expect(tidyText('Weight 200 GSM, 210g/m2, 220 g/㎡').text).toBe('Weight 200 g/m², 210 g/m², 220 g/m²');
    expect(tidyText('克重180克/平方米').text).toBe('克重 180 g/m²');
    expect(tidyText('65%poly 35%cotton, Poly/cotton, POLY').text).toBe('65% polyester 35% cotton, Polyester/cotton, POLYESTER');
    expect(tidyText('Polyamide 80%, polyurethane 20 %').text).toBe('Polyamide 80%, polyurethane 20%');
    expect(tidyText('面料成分:65%poly,35%棉').text).toBe('面料成分：65% polyester, 35% 棉');
  });

  it('leaves clean text alone and says so with a low confidence', () => {
    const clean = 'Soft cotton poplin, 120 g/m², 100% cotton.';
    const r = tidyText(clean);
    expect(r.text).toBe(clean);
    expect(r.count).toBe(0);
    expect(tidyConfidence(0)).toBe(0.2);
    expect(tidyConfidence(3)).toBeCloseTo(0.26);
    expect(tidyConfidence(50)).toBe(0.4);
  });
});
