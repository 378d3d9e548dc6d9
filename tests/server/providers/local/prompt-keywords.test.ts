import { describe, expect, it } from 'vitest';
import { keywordAdjustment, readPromptKeywords } from '../../../../server/providers/local/prompt-keywords.js';

describe('prompt keywords', () => {
  it('reads tone words in the five languages', () => {
    expect(readPromptKeywords('Make it warmer and brighter').tones).toEqual(['warmer', 'brighter']);
    expect(readPromptKeywords('整体冷一点，暗一些').tones).toEqual(['cooler', 'darker']);
    expect(readPromptKeywords('tông ấm hơn, rực rỡ').tones).toEqual(['warmer', 'vivid']);
    expect(readPromptKeywords('ขอโทนเย็นและนุ่มนวล').tones).toEqual(['cooler', 'softer']);
    expect(readPromptKeywords('lebih hangat dan gelap').tones).toEqual(['warmer', 'darker']);
  });

  it('finds a colour name, the longest first, and does not read it again as a tone', () => {
    expect(readPromptKeywords('in dark green please').color?.id).toBe('dark-green');
    expect(readPromptKeywords('in dark green please').tones).toEqual([]);
    expect(readPromptKeywords('偏红一点').color?.id).toBe('red');
    expect(readPromptKeywords('màu đỏ').color?.id).toBe('red');
    expect(readPromptKeywords('สีชมพู').color?.id).toBe('pink');
    expect(readPromptKeywords('biru dongker').color?.id).toBe('navy');
    expect(readPromptKeywords('a navy blue version').color?.id).toBe('navy');
    expect(readPromptKeywords('gray, muted').color?.id).toBe('grey');
  });

  it('does not take parts of words or other meanings for keywords', () => {
    expect(readPromptKeywords('a redesign of the boldness').color).toBeUndefined();
    expect(readPromptKeywords('it should be wider').color).toBeUndefined();
    expect(readPromptKeywords('宽幅150厘米').color).toBeUndefined();
  });

  it('black and white is one wish, not two colours', () => {
    const k = readPromptKeywords('black and white, please');
    expect(k.tones).toEqual(['mono']);
    expect(k.color).toBeUndefined();
    expect(keywordAdjustment(k).adjustment.saturation).toBe(0);
    expect(readPromptKeywords('黑白效果').tones).toEqual(['mono']);
  });

  it('turns keywords into a tone change', () => {
    const { adjustment, words } = keywordAdjustment(readPromptKeywords('warm and red'));
    expect(words).toEqual(['warmer']);
    expect(adjustment.warmth).toBeGreaterThan(0);
    expect(adjustment.tint?.amount).toBeGreaterThan(0);
    expect(adjustment.tint?.lab[1]).toBeGreaterThan(40);
  });
});
