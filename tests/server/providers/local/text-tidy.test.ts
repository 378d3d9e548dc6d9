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

  it('starts a sentence with a capital after a full stop, not after an abbreviation, and lists each change', () => {
    const r = tidyText('Soft hand. very light! easy care? yes e.g. shirts, approx. 120 g/m², size 12. next');
    expect(r.text).toBe('Soft hand. Very light! Easy care? Yes e.g. shirts, approx. 120 g/m², size 12. next.');
    expect(r.changes.filter((c) => c.rule === 'capitalisation')).toEqual([
      { rule: 'capitalisation', from: '. very', to: '. Very' },
      { rule: 'capitalisation', from: '! easy', to: '! Easy' },
      { rule: 'capitalisation', from: '? yes', to: '? Yes' },
    ]);
    expect(tidyText('cotton , soft').changes).toEqual([{ rule: 'punctuation-width', from: ' ,', to: ',' }]);
    // Chinese lines keep their own rules.
    expect(tidyText('这是面料. 很好').changes.some((c) => c.rule === 'capitalisation')).toBe(false);
  });

  it('ends prose made of sentences with a full stop; a phrase or a list is left as it is', () => {
    expect(tidyText('Light and airy. Very nice hand feel').text).toBe('Light and airy. Very nice hand feel.');
    expect(tidyText('Light and airy. Very nice hand feel').changes).toEqual([{ rule: 'final-stop', from: 'feel', to: 'feel.' }]);
    expect(tidyText('cotton, soft').text).toBe('cotton, soft');
    expect(tidyText('Light and airy.').count).toBe(0);
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
