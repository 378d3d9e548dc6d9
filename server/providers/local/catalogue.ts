// Every sentence and label the built-in engine writes, in the product's five languages. The
// engine fills these templates with measured facts and the designer's own words; nothing here
// claims more than was measured.
import type { Language } from '../capabilities.js';
import type { Orientation, PatternKind, PatternScale } from './pattern-structure.js';
import type { TextureLevel } from './texture-energy.js';
import type { Colourfulness, Level, Lightness, Warmth } from './tone-facts.js';

export interface PatternWords {
  kind: PatternKind;
  orientation: Orientation;
  scale: PatternScale;
  /** e.g. "16 px" or "16 × 16 px"; null without a repeat. */
  period: string | null;
  /** How many repeats fit across, formatted; null without a repeat. */
  repeats: string | null;
  /** Feature size, formatted ("24 px"). */
  featureSize: string;
}

export interface ToneWords {
  lightness: Lightness;
  contrast: Level;
  colourfulness: Colourfulness;
  warmth: Warmth;
}

export type StyleWord = 'graphic' | 'classic' | 'minimal' | 'playful' | 'airy' | 'refined' | 'vibrant' | 'natural';
export type MoodWord = 'calm' | 'crisp' | 'moody' | 'lively' | 'relaxed';
export type FabricField =
  | 'fabric_name'
  | 'composition'
  | 'weight'
  | 'transparency'
  | 'luster'
  | 'drape'
  | 'touch'
  | 'thickness'
  | 'model_guidance'
  | 'color_restrictions'
  | 'accessories'
  | 'scene'
  | 'suggested_uses';

/** Tone changes of a regenerated image or candidate, named in its label. */
export type AdjustmentWord =
  | 'warmer'
  | 'cooler'
  | 'brighter'
  | 'darker'
  | 'softer'
  | 'vivid'
  | 'mono'
  | 'tighter'
  | 'detail'
  | 'stronger'
  | 'gentler'
  | 'asIs';

export interface ImageFactsForText {
  pattern: string;
  patternShort: string;
  colors: string;
  tone: ToneWords;
  style: string;
}

export interface Catalogue {
  /** Noun phrase describing a measured pattern. */
  pattern(w: PatternWords): string;
  /** Two or three words: "vertical stripes", "check", "irregular print". */
  patternShort(w: PatternWords): string;
  fabricLabels: Record<FabricField, string>;
  /** Words for the structured analysis fields. */
  orientationNames: Record<Orientation, string>;
  scaleNames: Record<PatternScale, string>;
  /** Separator of "label: value" items in running text. */
  itemSeparator: string;
  /** Between a label and its value: ": " (full-width in Chinese). */
  labelSeparator: string;
  /** Joins style words: "crisp and graphic, vibrant". */
  styleSeparator: string;
  colorWithShare(name: string, hex: string, percent: string): string;
  styleWords: Record<StyleWord, string>;
  moodWords: Record<MoodWord, string>;
  textureWords: Record<TextureLevel, string>;
  tone(t: ToneWords): string;
  analysis: {
    intro(patternCount: number, modelCount: number): string;
    patternImage(index: number | null, description: string): string;
    colors(list: string): string;
    overall(tone: string): string;
    texture(level: TextureLevel, energy: string): string;
    fabric(details: string): string;
    model(count: number, lightness: Lightness, colors: string): string;
    noModel: string;
    noPattern: string;
    noImages: string;
    style(style: string): string;
    uses(uses: string): string;
    scene(scene: string): string;
    notes(description: string): string;
    closing: string;
    summary(pattern: string, colors: string, tone: string): string;
    imagePrompt(p: { prompt: string; fabric: string; facts: ImageFactsForText; extras: string }): string;
    moments(p: { name: string; patternShort: string; colors: string; hand: string; selling: string; uses: string; market: string }): string;
    defaultFabricName: string;
  };
  labels: {
    modelToned: string;
    modelPanel: string;
    swatchTiled: string;
    swatchCloseUp: string;
    colourway(degrees: number): string;
    lookbook: string;
    halfDrop: string;
    mirror: string;
    paletteCard: string;
    modelReframed: string;
    modelWarm: string;
    modelCool: string;
    modelHighKey: string;
    modelMuted: string;
    modelDetail: string;
    modelGrid: string;
    variation(n: number, changes: string): string;
    adjustments: Record<AdjustmentWord, string>;
    tintedToward(color: string): string;
    /** A hue shift inside a variation's list of changes: "colourway +30°". */
    hueShift(signedDegrees: string): string;
  };
  video: {
    subject(fabric: string): string;
    detail(p: { cams: string; subject: string; pattern: string; colors: string; luster: string }): string;
    follow(p: { cams: string; subject: string; pattern: string; drape: string }): string;
    reveal(p: { cams: string; subject: string; hand: string }): string;
    scene(scene: string): string;
    mood(mood: string): string;
    defaultScenes: [string, string, string];
  };
}

const enOrientation: Record<Orientation, string> = {
  horizontal: 'horizontal',
  vertical: 'vertical',
  diagonal: 'diagonal',
  check: 'crossing',
  none: '',
};
const enScale: Record<PatternScale, string> = { fine: 'fine', medium: 'medium', large: 'large', none: '' };

const en: Catalogue = {
  pattern(w) {
    const scale = w.scale === 'none' ? '' : `, ${enScale[w.scale]} scale`;
    switch (w.kind) {
      case 'solid':
        return 'a solid colour with no visible pattern';
      case 'stripes':
        return `${enOrientation[w.orientation]} stripes repeating about every ${w.period} (about ${w.repeats} repeats across the image)${scale}`;
      case 'check':
        return `a check repeating about every ${w.period} (about ${w.repeats} repeats across)${scale}`;
      case 'directional':
        return `a ${enOrientation[w.orientation]} directional texture with no regular repeat`;
      case 'print':
        return `an irregular print with motifs about ${w.featureSize} across${scale}`;
    }
  },
  patternShort(w) {
    switch (w.kind) {
      case 'solid':
        return 'solid colour';
      case 'stripes':
        return `${enOrientation[w.orientation]} stripes`;
      case 'check':
        return 'check';
      case 'directional':
        return `${enOrientation[w.orientation]} texture`;
      case 'print':
        return 'print';
    }
  },
  fabricLabels: {
    fabric_name: 'fabric',
    composition: 'composition',
    weight: 'weight',
    transparency: 'transparency',
    luster: 'luster',
    drape: 'drape',
    touch: 'hand',
    thickness: 'thickness',
    model_guidance: 'model',
    color_restrictions: 'colour limits',
    accessories: 'accessories',
    scene: 'scene',
    suggested_uses: 'uses',
  },
  orientationNames: { horizontal: 'horizontal', vertical: 'vertical', diagonal: 'diagonal', check: 'check', none: 'none' },
  scaleNames: { fine: 'fine', medium: 'medium', large: 'large', none: 'none' },
  itemSeparator: '; ',
  labelSeparator: ': ',
  styleSeparator: ', ',
  colorWithShare: (name, hex, pct) => `${name} ${hex} (${pct})`,
  styleWords: {
    graphic: 'crisp and graphic',
    classic: 'classic',
    minimal: 'clean and minimal',
    playful: 'bold and playful',
    airy: 'soft and airy',
    refined: 'moody and refined',
    vibrant: 'vibrant',
    natural: 'natural',
  },
  moodWords: {
    calm: 'calm, airy',
    crisp: 'confident, crisp',
    moody: 'moody, elegant',
    lively: 'lively, joyful',
    relaxed: 'relaxed, natural',
  },
  textureWords: { smooth: 'smooth', fine: 'finely textured', pronounced: 'pronounced texture' },
  tone(t) {
    const lightness = { light: 'light', medium: 'mid-toned', dark: 'dark' }[t.lightness];
    const colour = { muted: 'muted', moderate: 'moderate', vivid: 'vivid' }[t.colourfulness];
    return `${lightness}, ${t.contrast} contrast, ${colour} colour, ${t.warmth} palette`;
  },
  analysis: {
    intro: (p, m) =>
      `Local preview analysis by the built-in engine, measured from ${p} pattern image${p === 1 ? '' : 's'} and ${m} model image${m === 1 ? '' : 's'} (no AI model was used).`,
    patternImage: (i, d) => (i === null ? `Pattern: ${d}.` : `Pattern image ${i}: ${d}.`),
    colors: (list) => `Dominant colours: ${list}.`,
    overall: (t) => `Overall: ${t}.`,
    texture: (level, energy) => `Surface detail: ${en.textureWords[level]} (texture energy ${energy} on a 0–1 scale).`,
    fabric: (d) => `From the fabric form: ${d}.`,
    model: (n, lightness, colors) =>
      `Model photo${n === 1 ? '' : 's'} (${n}): mostly ${{ light: 'light', medium: 'mid-toned', dark: 'dark' }[lightness]}, in ${colors}.`,
    noModel: 'No model photo was given, so the candidates will be pattern compositions.',
    noPattern: 'No pattern image was given; colours and tone come from the model photos.',
    noImages: 'No images were given; the analysis rests on the fabric form and your brief alone.',
    style: (s) => `Style direction: ${s}.`,
    uses: (u) => `Suggested uses: ${u}.`,
    scene: (s) => `Scene: ${s}.`,
    notes: (d) => `Your notes: ${d}.`,
    closing: 'These are measurements and your own inputs, not an AI judgement; check them against the fabric in hand.',
    summary: (pattern, colors, tone) => `${capitalise(pattern)}; colours ${colors}; ${tone}.`,
    imagePrompt: ({ prompt, fabric, facts, extras }) =>
      joinNonEmpty(
        [
          prompt,
          fabric && `${fabric}.`,
          `Pattern: ${facts.pattern}. Colours: ${facts.colors}. Tone: ${en.tone(facts.tone)}.`,
          `Style: ${facts.style}.`,
          extras,
        ],
        ' ',
      ),
    moments: ({ name, patternShort, colors, hand, selling, uses, market }) =>
      joinNonEmpty(
        [
          `${name}: ${patternShort} in ${colors}.`,
          hand && `Feels ${hand}.`,
          selling && `${capitalise(selling)}.`,
          uses && `Made for ${uses}.`,
          market && `For ${market}.`,
          'Message us for swatches.',
        ],
        ' ',
      ),
    defaultFabricName: 'New fabric',
  },
  labels: {
    modelToned: "Model photo toned to the pattern's colours",
    modelPanel: 'Model photo with pattern swatch and palette',
    swatchTiled: 'Pattern tiled at fabric scale',
    swatchCloseUp: 'Pattern close-up',
    colourway: (d) => `Colourway: hue shifted ${d}°`,
    lookbook: 'Lookbook grid',
    halfDrop: 'Half-drop repeat',
    mirror: 'Mirror repeat',
    paletteCard: 'Pattern with palette card',
    modelReframed: 'Model photo, reframed',
    modelWarm: 'Model photo, warmer tone',
    modelCool: 'Model photo, cooler tone',
    modelHighKey: 'Model photo, bright high-key',
    modelMuted: 'Model photo, muted tones',
    modelDetail: 'Model photo, detail crop',
    modelGrid: 'Model photos side by side',
    variation: (n, c) => `Variation ${n}: ${c}`,
    adjustments: {
      warmer: 'warmer',
      cooler: 'cooler',
      brighter: 'brighter',
      darker: 'darker',
      softer: 'softer',
      vivid: 'more vivid',
      mono: 'black and white',
      tighter: 'tighter crop',
      detail: 'detail crop',
      stronger: 'stronger',
      gentler: 'gentler',
      asIs: 'reframed as is',
    },
    tintedToward: (c) => `tinted toward ${c}`,
    hueShift: (d) => `colourway ${d}°`,
  },
  video: {
    subject: (f) => f || 'the fabric',
    detail: ({ cams, subject, pattern, colors, luster }) =>
      `${cams} Close on ${subject}: ${pattern} in ${colors}${luster ? `, its ${luster} luster catching soft light` : ', the weave catching soft light'}.`,
    follow: ({ cams, subject, pattern, drape }) =>
      `${cams} The camera follows the ${pattern} as ${subject} moves gently${drape ? ` with a ${drape} drape` : ''}.`,
    reveal: ({ cams, subject, hand }) =>
      `${cams} A full look comes into view, ${subject} flowing with each step${hand ? `, ${hand}` : ''}.`,
    scene: (s) => `Scene: ${s}.`,
    mood: (m) => `Mood: ${m}.`,
    defaultScenes: ['a bright studio with soft daylight', 'a city street at golden hour', 'a seaside terrace in morning light'],
  },
};

const zhOrientation: Record<Orientation, string> = { horizontal: '横', vertical: '竖', diagonal: '斜', check: '交叉', none: '' };
const zhScale: Record<PatternScale, string> = { fine: '小', medium: '中', large: '大', none: '' };

const zh: Catalogue = {
  pattern(w) {
    const scale = w.scale === 'none' ? '' : `，属${zhScale[w.scale]}花型`;
    switch (w.kind) {
      case 'solid':
        return '素色，无明显图案';
      case 'stripes':
        return `${zhOrientation[w.orientation]}条纹，约每 ${w.period} 重复一次（画面内约 ${w.repeats} 个循环）${scale}`;
      case 'check':
        return `格纹，循环约 ${w.period}（画面内约 ${w.repeats} 个循环）${scale}`;
      case 'directional':
        return `${zhOrientation[w.orientation]}向纹理，无规则循环`;
      case 'print':
        return `不规则印花，图案单元约 ${w.featureSize}${scale}`;
    }
  },
  patternShort(w) {
    switch (w.kind) {
      case 'solid':
        return '素色';
      case 'stripes':
        return `${zhOrientation[w.orientation]}条纹`;
      case 'check':
        return '格纹';
      case 'directional':
        return `${zhOrientation[w.orientation]}向纹理`;
      case 'print':
        return '印花';
    }
  },
  fabricLabels: {
    fabric_name: '面料',
    composition: '成分',
    weight: '克重',
    transparency: '透明度',
    luster: '光泽',
    drape: '垂感',
    touch: '手感',
    thickness: '厚度',
    model_guidance: '模特要求',
    color_restrictions: '颜色限制',
    accessories: '配饰',
    scene: '场景',
    suggested_uses: '用途',
  },
  orientationNames: { horizontal: '横向', vertical: '竖向', diagonal: '斜向', check: '经纬交叉', none: '无' },
  scaleNames: { fine: '小花型', medium: '中花型', large: '大花型', none: '无' },
  itemSeparator: '；',
  labelSeparator: '：',
  styleSeparator: '、',
  colorWithShare: (name, hex, pct) => `${name} ${hex}（${pct}）`,
  styleWords: {
    graphic: '利落的图形感',
    classic: '经典',
    minimal: '简约干净',
    playful: '大胆活泼',
    airy: '轻盈柔和',
    refined: '沉稳高级',
    vibrant: '明快',
    natural: '自然',
  },
  moodWords: {
    calm: '宁静、轻盈',
    crisp: '自信、利落',
    moody: '沉静、优雅',
    lively: '活泼、愉悦',
    relaxed: '松弛、自然',
  },
  textureWords: { smooth: '平滑', fine: '纹理细腻', pronounced: '纹理明显' },
  tone(t) {
    const lightness = { light: '偏浅', medium: '中等', dark: '偏深' }[t.lightness];
    const contrast = { low: '低', medium: '中等', high: '高' }[t.contrast];
    const colour = { muted: '低饱和', moderate: '饱和度适中', vivid: '鲜艳' }[t.colourfulness];
    const warmth = { warm: '偏暖', neutral: '中性', cool: '偏冷' }[t.warmth];
    return `色调${lightness}，对比度${contrast}，色彩${colour}，色温${warmth}`;
  },
  analysis: {
    intro: (p, m) => `本地预览分析：由内置引擎根据 ${p} 张花型图和 ${m} 张模特图测量得出（未使用 AI 模型）。`,
    patternImage: (i, d) => (i === null ? `花型：${d}。` : `花型图 ${i}：${d}。`),
    colors: (list) => `主色：${list}。`,
    overall: (t) => `整体：${t}。`,
    texture: (level, energy) => `表面细节：${zh.textureWords[level]}（纹理能量 ${energy}，范围 0–1）。`,
    fabric: (d) => `面料信息：${d}。`,
    model: (n, lightness, colors) => `模特图（${n} 张）：整体${{ light: '偏浅', medium: '中等', dark: '偏深' }[lightness]}，主要为${colors}。`,
    noModel: '未提供模特图，候选图将以花型排版为主。',
    noPattern: '未提供花型图，颜色与色调取自模特图。',
    noImages: '未提供图片，分析仅依据面料信息和您的描述。',
    style: (s) => `风格方向：${s}。`,
    uses: (u) => `建议用途：${u}。`,
    scene: (s) => `场景：${s}。`,
    notes: (d) => `您的备注：${d}。`,
    closing: '以上为测量结果与您填写的信息，并非 AI 判断，请对照实物面料核对。',
    summary: (pattern, colors, tone) => `${pattern}；主色${colors}；${tone}。`,
    imagePrompt: ({ prompt, fabric, facts, extras }) =>
      joinNonEmpty(
        [
          prompt,
          fabric && `${fabric}。`,
          `花型：${facts.pattern}。颜色：${facts.colors}。色调：${zh.tone(facts.tone)}。`,
          `风格：${facts.style}。`,
          extras,
        ],
        '',
      ),
    moments: ({ name, patternShort, colors, hand, selling, uses, market }) =>
      joinNonEmpty(
        [
          `【${name}】${colors}${patternShort}。`,
          hand && `手感${hand}。`,
          selling && `${selling}。`,
          uses && `适合${uses}。`,
          market && `面向${market}。`,
          '欢迎私信索取色卡与样布。',
        ],
        '',
      ),
    defaultFabricName: '新品面料',
  },
  labels: {
    modelToned: '模特图（按花型配色调色）',
    modelPanel: '模特图配花型小样与色卡',
    swatchTiled: '花型平铺（面料比例）',
    swatchCloseUp: '花型特写',
    colourway: (d) => `配色方案：色相偏移 ${d}°`,
    lookbook: 'Lookbook 拼图',
    halfDrop: '半跳接回位',
    mirror: '镜像回位',
    paletteCard: '花型配色卡',
    modelReframed: '模特图（重新构图）',
    modelWarm: '模特图（暖调）',
    modelCool: '模特图（冷调）',
    modelHighKey: '模特图（明亮高调）',
    modelMuted: '模特图（低饱和）',
    modelDetail: '模特图（细节裁切）',
    modelGrid: '模特图并排',
    variation: (n, c) => `变体 ${n}：${c}`,
    adjustments: {
      warmer: '更暖',
      cooler: '更冷',
      brighter: '更亮',
      darker: '更暗',
      softer: '更柔和',
      vivid: '更鲜艳',
      mono: '黑白',
      tighter: '收紧构图',
      detail: '细节裁切',
      stronger: '加强',
      gentler: '减弱',
      asIs: '保持原样重新构图',
    },
    tintedToward: (c) => `偏向${c}`,
    hueShift: (d) => `配色 ${d}°`,
  },
  video: {
    subject: (f) => f || '面料',
    detail: ({ cams, subject, pattern, colors, luster }) =>
      `${cams} 近景拍摄${subject}：${colors}${pattern}，${luster ? `${luster}的光泽在柔光下闪动` : '织纹在柔光下清晰可见'}。`,
    follow: ({ cams, subject, pattern, drape }) =>
      `${cams} 镜头沿着${pattern}移动，${subject}轻轻摆动${drape ? `，呈现${drape}的垂感` : ''}。`,
    reveal: ({ cams, subject, hand }) => `${cams} 完整造型逐渐呈现，${subject}随步伐自然飘动${hand ? `，${hand}` : ''}。`,
    scene: (s) => `场景：${s}。`,
    mood: (m) => `氛围：${m}。`,
    defaultScenes: ['柔和自然光的明亮影棚', '黄昏时分的城市街道', '晨光中的海边露台'],
  },
};

const viOrientation: Record<Orientation, string> = { horizontal: 'ngang', vertical: 'dọc', diagonal: 'chéo', check: 'đan chéo', none: '' };
const viScale: Record<PatternScale, string> = { fine: 'nhỏ', medium: 'vừa', large: 'lớn', none: '' };

const vi: Catalogue = {
  pattern(w) {
    const scale = w.scale === 'none' ? '' : `, họa tiết cỡ ${viScale[w.scale]}`;
    switch (w.kind) {
      case 'solid':
        return 'vải trơn một màu, không có họa tiết rõ';
      case 'stripes':
        return `sọc ${viOrientation[w.orientation]}, lặp lại khoảng mỗi ${w.period} (khoảng ${w.repeats} lần lặp trên ảnh)${scale}`;
      case 'check':
        return `kẻ ô, lặp lại khoảng mỗi ${w.period} (khoảng ${w.repeats} lần lặp)${scale}`;
      case 'directional':
        return `vân chạy theo hướng ${viOrientation[w.orientation]}, không có chu kỳ lặp đều`;
      case 'print':
        return `họa tiết in không đều, mỗi chi tiết khoảng ${w.featureSize}${scale}`;
    }
  },
  patternShort(w) {
    switch (w.kind) {
      case 'solid':
        return 'vải trơn';
      case 'stripes':
        return `sọc ${viOrientation[w.orientation]}`;
      case 'check':
        return 'kẻ ô';
      case 'directional':
        return `vân ${viOrientation[w.orientation]}`;
      case 'print':
        return 'họa tiết in';
    }
  },
  fabricLabels: {
    fabric_name: 'vải',
    composition: 'thành phần',
    weight: 'định lượng',
    transparency: 'độ trong',
    luster: 'độ bóng',
    drape: 'độ rủ',
    touch: 'cảm giác tay',
    thickness: 'độ dày',
    model_guidance: 'người mẫu',
    color_restrictions: 'giới hạn màu',
    accessories: 'phụ kiện',
    scene: 'bối cảnh',
    suggested_uses: 'công dụng',
  },
  orientationNames: { horizontal: 'ngang', vertical: 'dọc', diagonal: 'chéo', check: 'kẻ ô', none: 'không có' },
  scaleNames: { fine: 'nhỏ', medium: 'vừa', large: 'lớn', none: 'không có' },
  itemSeparator: '; ',
  labelSeparator: ': ',
  styleSeparator: ', ',
  colorWithShare: (name, hex, pct) => `${name} ${hex} (${pct})`,
  styleWords: {
    graphic: 'đồ họa sắc nét',
    classic: 'cổ điển',
    minimal: 'tối giản, sạch sẽ',
    playful: 'táo bạo, vui tươi',
    airy: 'nhẹ nhàng, thoáng đãng',
    refined: 'trầm lắng, tinh tế',
    vibrant: 'tươi sáng',
    natural: 'tự nhiên',
  },
  moodWords: {
    calm: 'yên bình, thoáng đãng',
    crisp: 'tự tin, gọn gàng',
    moody: 'trầm lắng, thanh lịch',
    lively: 'sôi động, vui tươi',
    relaxed: 'thư thái, tự nhiên',
  },
  textureWords: { smooth: 'mịn', fine: 'vân mịn', pronounced: 'vân rõ' },
  tone(t) {
    const lightness = { light: 'sáng', medium: 'trung bình', dark: 'tối' }[t.lightness];
    const contrast = { low: 'thấp', medium: 'vừa', high: 'cao' }[t.contrast];
    const colour = { muted: 'trầm', moderate: 'vừa phải', vivid: 'rực rỡ' }[t.colourfulness];
    const warmth = { warm: 'ấm', neutral: 'trung tính', cool: 'lạnh' }[t.warmth];
    return `tông ${lightness}, tương phản ${contrast}, màu sắc ${colour}, bảng màu ${warmth}`;
  },
  analysis: {
    intro: (p, m) =>
      `Phân tích xem trước cục bộ của bộ máy tích hợp, đo từ ${p} ảnh họa tiết và ${m} ảnh người mẫu (không dùng mô hình AI).`,
    patternImage: (i, d) => (i === null ? `Họa tiết: ${d}.` : `Ảnh họa tiết ${i}: ${d}.`),
    colors: (list) => `Màu chủ đạo: ${list}.`,
    overall: (t) => `Tổng thể: ${t}.`,
    texture: (level, energy) => `Bề mặt: ${vi.textureWords[level]} (năng lượng vân ${energy} trên thang 0–1).`,
    fabric: (d) => `Theo thông tin vải: ${d}.`,
    model: (n, lightness, colors) =>
      `Ảnh người mẫu (${n}): chủ yếu tông ${{ light: 'sáng', medium: 'trung bình', dark: 'tối' }[lightness]}, với màu ${colors}.`,
    noModel: 'Không có ảnh người mẫu, nên các ảnh đề xuất sẽ là bố cục họa tiết.',
    noPattern: 'Không có ảnh họa tiết; màu và tông lấy từ ảnh người mẫu.',
    noImages: 'Không có ảnh; phân tích chỉ dựa trên thông tin vải và mô tả của bạn.',
    style: (s) => `Định hướng phong cách: ${s}.`,
    uses: (u) => `Gợi ý sử dụng: ${u}.`,
    scene: (s) => `Bối cảnh: ${s}.`,
    notes: (d) => `Ghi chú của bạn: ${d}.`,
    closing: 'Đây là số đo và thông tin bạn nhập, không phải đánh giá của AI; hãy đối chiếu với vải thật.',
    summary: (pattern, colors, tone) => `${capitalise(pattern)}; màu ${colors}; ${tone}.`,
    imagePrompt: ({ prompt, fabric, facts, extras }) =>
      joinNonEmpty(
        [
          prompt,
          fabric && `${fabric}.`,
          `Họa tiết: ${facts.pattern}. Màu: ${facts.colors}. Tông: ${vi.tone(facts.tone)}.`,
          `Phong cách: ${facts.style}.`,
          extras,
        ],
        ' ',
      ),
    moments: ({ name, patternShort, colors, hand, selling, uses, market }) =>
      joinNonEmpty(
        [
          `${name}: ${patternShort} màu ${colors}.`,
          hand && `Cảm giác ${hand}.`,
          selling && `${capitalise(selling)}.`,
          uses && `Phù hợp cho ${uses}.`,
          market && `Dành cho ${market}.`,
          'Nhắn tin để nhận mẫu vải.',
        ],
        ' ',
      ),
    defaultFabricName: 'Vải mới',
  },
  labels: {
    modelToned: 'Ảnh người mẫu chỉnh theo màu họa tiết',
    modelPanel: 'Ảnh người mẫu kèm mẫu họa tiết và bảng màu',
    swatchTiled: 'Họa tiết lát theo tỉ lệ vải',
    swatchCloseUp: 'Cận cảnh họa tiết',
    colourway: (d) => `Phối màu: xoay sắc độ ${d}°`,
    lookbook: 'Lưới lookbook',
    halfDrop: 'Lặp lệch nửa (half-drop)',
    mirror: 'Lặp đối xứng',
    paletteCard: 'Họa tiết kèm thẻ màu',
    modelReframed: 'Ảnh người mẫu, bố cục lại',
    modelWarm: 'Ảnh người mẫu, tông ấm hơn',
    modelCool: 'Ảnh người mẫu, tông lạnh hơn',
    modelHighKey: 'Ảnh người mẫu, sáng (high-key)',
    modelMuted: 'Ảnh người mẫu, màu trầm',
    modelDetail: 'Ảnh người mẫu, cắt cận chi tiết',
    modelGrid: 'Ảnh người mẫu đặt cạnh nhau',
    variation: (n, c) => `Biến thể ${n}: ${c}`,
    adjustments: {
      warmer: 'ấm hơn',
      cooler: 'lạnh hơn',
      brighter: 'sáng hơn',
      darker: 'tối hơn',
      softer: 'dịu hơn',
      vivid: 'rực rỡ hơn',
      mono: 'đen trắng',
      tighter: 'cắt cúp chặt hơn',
      detail: 'cắt cận chi tiết',
      stronger: 'mạnh hơn',
      gentler: 'nhẹ hơn',
      asIs: 'giữ nguyên, bố cục lại',
    },
    tintedToward: (c) => `ngả sang màu ${c}`,
    hueShift: (d) => `phối màu ${d}°`,
  },
  video: {
    subject: (f) => f || 'tấm vải',
    detail: ({ cams, subject, pattern, colors, luster }) =>
      `${cams} Cận cảnh ${subject}: ${pattern} màu ${colors}${luster ? `, độ bóng ${luster} bắt ánh sáng dịu` : ', thớ vải hiện rõ dưới ánh sáng dịu'}.`,
    follow: ({ cams, subject, pattern, drape }) =>
      `${cams} Máy quay di chuyển theo ${pattern} khi ${subject} khẽ chuyển động${drape ? `, độ rủ ${drape}` : ''}.`,
    reveal: ({ cams, subject, hand }) =>
      `${cams} Toàn bộ trang phục dần hiện ra, ${subject} bay nhẹ theo từng bước chân${hand ? `, ${hand}` : ''}.`,
    scene: (s) => `Bối cảnh: ${s}.`,
    mood: (m) => `Không khí: ${m}.`,
    defaultScenes: ['studio sáng với ánh sáng ban ngày dịu nhẹ', 'phố thị lúc hoàng hôn', 'sân hiên bên biển trong nắng sớm'],
  },
};

const thOrientation: Record<Orientation, string> = {
  horizontal: 'แนวนอน',
  vertical: 'แนวตั้ง',
  diagonal: 'แนวทแยง',
  check: 'ตัดกัน',
  none: '',
};
const thScale: Record<PatternScale, string> = { fine: 'เล็ก', medium: 'กลาง', large: 'ใหญ่', none: '' };

const th: Catalogue = {
  pattern(w) {
    const scale = w.scale === 'none' ? '' : ` ขนาดลาย${thScale[w.scale]}`;
    switch (w.kind) {
      case 'solid':
        return 'ผ้าสีพื้น ไม่มีลวดลายชัดเจน';
      case 'stripes':
        return `ลายทาง${thOrientation[w.orientation]} ซ้ำทุกประมาณ ${w.period} (ราว ${w.repeats} ช่วงในภาพ)${scale}`;
      case 'check':
        return `ลายตาราง ซ้ำทุกประมาณ ${w.period} (ราว ${w.repeats} ช่วงในภาพ)${scale}`;
      case 'directional':
        return `พื้นผิวมีทิศทาง${thOrientation[w.orientation]} ไม่มีการซ้ำที่สม่ำเสมอ`;
      case 'print':
        return `ลายพิมพ์ไม่สม่ำเสมอ ลวดลายขนาดประมาณ ${w.featureSize}${scale}`;
    }
  },
  patternShort(w) {
    switch (w.kind) {
      case 'solid':
        return 'ผ้าสีพื้น';
      case 'stripes':
        return `ลายทาง${thOrientation[w.orientation]}`;
      case 'check':
        return 'ลายตาราง';
      case 'directional':
        return `พื้นผิว${thOrientation[w.orientation]}`;
      case 'print':
        return 'ลายพิมพ์';
    }
  },
  fabricLabels: {
    fabric_name: 'ผ้า',
    composition: 'ส่วนผสม',
    weight: 'น้ำหนัก',
    transparency: 'ความโปร่งแสง',
    luster: 'ความเงา',
    drape: 'การทิ้งตัว',
    touch: 'สัมผัส',
    thickness: 'ความหนา',
    model_guidance: 'นางแบบ',
    color_restrictions: 'ข้อจำกัดสี',
    accessories: 'เครื่องประดับ',
    scene: 'ฉาก',
    suggested_uses: 'การใช้งาน',
  },
  orientationNames: { horizontal: 'แนวนอน', vertical: 'แนวตั้ง', diagonal: 'แนวทแยง', check: 'ตาราง', none: 'ไม่มี' },
  scaleNames: { fine: 'เล็ก', medium: 'กลาง', large: 'ใหญ่', none: 'ไม่มี' },
  itemSeparator: ' ',
  labelSeparator: ': ',
  styleSeparator: ' ',
  colorWithShare: (name, hex, pct) => `${name} ${hex} (${pct})`,
  styleWords: {
    graphic: 'กราฟิกคมชัด',
    classic: 'คลาสสิก',
    minimal: 'มินิมอลเรียบง่าย',
    playful: 'โดดเด่นสนุกสนาน',
    airy: 'นุ่มนวลโปร่งเบา',
    refined: 'ลุ่มลึกหรูหรา',
    vibrant: 'สดใส',
    natural: 'เป็นธรรมชาติ',
  },
  moodWords: {
    calm: 'สงบ โปร่งเบา',
    crisp: 'มั่นใจ คมชัด',
    moody: 'ลุ่มลึก สง่างาม',
    lively: 'มีชีวิตชีวา สดชื่น',
    relaxed: 'ผ่อนคลาย เป็นธรรมชาติ',
  },
  textureWords: { smooth: 'เรียบ', fine: 'มีเท็กซ์เจอร์ละเอียด', pronounced: 'มีเท็กซ์เจอร์ชัด' },
  tone(t) {
    const lightness = { light: 'สว่าง', medium: 'กลาง', dark: 'เข้ม' }[t.lightness];
    const contrast = { low: 'ต่ำ', medium: 'ปานกลาง', high: 'สูง' }[t.contrast];
    const colour = { muted: 'หม่น', moderate: 'ปานกลาง', vivid: 'สด' }[t.colourfulness];
    const warmth = { warm: 'โทนอุ่น', neutral: 'โทนกลาง', cool: 'โทนเย็น' }[t.warmth];
    return `โทน${lightness} คอนทราสต์${contrast} สี${colour} ชุดสี${warmth}`;
  },
  analysis: {
    intro: (p, m) =>
      `การวิเคราะห์แบบพรีวิวในเครื่องโดยเอนจินในตัว วัดจากภาพลายผ้า ${p} ภาพและภาพนางแบบ ${m} ภาพ (ไม่ได้ใช้โมเดล AI)`,
    patternImage: (i, d) => (i === null ? `ลาย: ${d}` : `ภาพลายผ้า ${i}: ${d}`),
    colors: (list) => `สีหลัก: ${list}`,
    overall: (t) => `โดยรวม: ${t}`,
    texture: (level, energy) => `รายละเอียดพื้นผิว: ${th.textureWords[level]} (พลังงานพื้นผิว ${energy} จากสเกล 0–1)`,
    fabric: (d) => `จากข้อมูลผ้า: ${d}`,
    model: (n, lightness, colors) =>
      `ภาพนางแบบ (${n} ภาพ): ส่วนใหญ่โทน${{ light: 'สว่าง', medium: 'กลาง', dark: 'เข้ม' }[lightness]} มี${colors}`,
    noModel: 'ไม่มีภาพนางแบบ ภาพตัวเลือกจึงเป็นการจัดวางลายผ้า',
    noPattern: 'ไม่มีภาพลายผ้า สีและโทนจึงมาจากภาพนางแบบ',
    noImages: 'ไม่มีภาพ การวิเคราะห์อิงจากข้อมูลผ้าและคำอธิบายของคุณเท่านั้น',
    style: (s) => `แนวสไตล์: ${s}`,
    uses: (u) => `การใช้งานที่แนะนำ: ${u}`,
    scene: (s) => `ฉาก: ${s}`,
    notes: (d) => `บันทึกของคุณ: ${d}`,
    closing: 'ข้อมูลนี้มาจากการวัดและข้อมูลที่คุณกรอก ไม่ใช่การตัดสินของ AI โปรดเทียบกับผ้าจริง',
    summary: (pattern, colors, tone) => `${pattern} ${colors} ${tone}`,
    imagePrompt: ({ prompt, fabric, facts, extras }) =>
      joinNonEmpty(
        [
          prompt,
          fabric,
          `ลาย: ${facts.pattern} สี: ${facts.colors} โทน: ${th.tone(facts.tone)}`,
          `สไตล์: ${facts.style}`,
          extras,
        ],
        ' ',
      ),
    moments: ({ name, patternShort, colors, hand, selling, uses, market }) =>
      joinNonEmpty(
        [
          `${name}: ${patternShort} ${colors}`,
          hand && `สัมผัส${hand}`,
          selling,
          uses && `เหมาะสำหรับ ${uses}`,
          market && `สำหรับ ${market}`,
          'ทักแชทเพื่อขอตัวอย่างผ้า',
        ],
        ' ',
      ),
    defaultFabricName: 'ผ้าใหม่',
  },
  labels: {
    modelToned: 'ภาพนางแบบปรับโทนตามสีของลายผ้า',
    modelPanel: 'ภาพนางแบบพร้อมตัวอย่างลายและชุดสี',
    swatchTiled: 'ลายผ้าเรียงต่อตามสเกลผ้า',
    swatchCloseUp: 'ลายผ้าระยะใกล้',
    colourway: (d) => `โทนสีทางเลือก: หมุนเฉดสี ${d}°`,
    lookbook: 'ตารางลุคบุ๊ก',
    halfDrop: 'การต่อลายแบบ half-drop',
    mirror: 'การต่อลายแบบสะท้อน',
    paletteCard: 'ลายผ้าพร้อมการ์ดสี',
    modelReframed: 'ภาพนางแบบ จัดองค์ประกอบใหม่',
    modelWarm: 'ภาพนางแบบ โทนอุ่นขึ้น',
    modelCool: 'ภาพนางแบบ โทนเย็นขึ้น',
    modelHighKey: 'ภาพนางแบบ สว่างแบบไฮคีย์',
    modelMuted: 'ภาพนางแบบ สีหม่น',
    modelDetail: 'ภาพนางแบบ ครอปรายละเอียด',
    modelGrid: 'ภาพนางแบบเรียงคู่กัน',
    variation: (n, c) => `แบบที่ ${n}: ${c}`,
    adjustments: {
      warmer: 'อุ่นขึ้น',
      cooler: 'เย็นขึ้น',
      brighter: 'สว่างขึ้น',
      darker: 'เข้มขึ้น',
      softer: 'นุ่มนวลขึ้น',
      vivid: 'สดขึ้น',
      mono: 'ขาวดำ',
      tighter: 'ครอปให้แน่นขึ้น',
      detail: 'ครอปรายละเอียด',
      stronger: 'ชัดขึ้น',
      gentler: 'เบาลง',
      asIs: 'คงเดิม จัดองค์ประกอบใหม่',
    },
    tintedToward: (c) => `อมโทน${c}`,
    hueShift: (d) => `โทนสีทางเลือก ${d}°`,
  },
  video: {
    subject: (f) => f || 'ผ้า',
    detail: ({ cams, subject, pattern, colors, luster }) =>
      `${cams} ภาพระยะใกล้ของ${subject}: ${pattern} ${colors}${luster ? ` ความเงาแบบ${luster}สะท้อนแสงนุ่ม` : ' เนื้อผ้าชัดในแสงนุ่ม'}`,
    follow: ({ cams, subject, pattern, drape }) =>
      `${cams} กล้องเคลื่อนตาม${pattern} ขณะที่${subject}ขยับเบา ๆ${drape ? ` ทิ้งตัวแบบ${drape}` : ''}`,
    reveal: ({ cams, subject, hand }) =>
      `${cams} เผยลุคเต็มตัว ${subject}พลิ้วไหวตามจังหวะก้าวเดิน${hand ? ` ${hand}` : ''}`,
    scene: (s) => `ฉาก: ${s}`,
    mood: (m) => `อารมณ์: ${m}`,
    defaultScenes: ['สตูดิโอสว่างด้วยแสงธรรมชาติอ่อน ๆ', 'ถนนในเมืองยามพระอาทิตย์ตก', 'ระเบียงริมทะเลในแสงยามเช้า'],
  },
};

const idOrientation: Record<Orientation, string> = {
  horizontal: 'horizontal',
  vertical: 'vertikal',
  diagonal: 'diagonal',
  check: 'bersilang',
  none: '',
};
const idScale: Record<PatternScale, string> = { fine: 'kecil', medium: 'sedang', large: 'besar', none: '' };

const id: Catalogue = {
  pattern(w) {
    const scale = w.scale === 'none' ? '' : `, motif ukuran ${idScale[w.scale]}`;
    switch (w.kind) {
      case 'solid':
        return 'polos satu warna tanpa motif yang terlihat';
      case 'stripes':
        return `garis ${idOrientation[w.orientation]} yang berulang kira-kira setiap ${w.period} (sekitar ${w.repeats} ulangan di gambar)${scale}`;
      case 'check':
        return `kotak-kotak yang berulang kira-kira setiap ${w.period} (sekitar ${w.repeats} ulangan)${scale}`;
      case 'directional':
        return `tekstur berarah ${idOrientation[w.orientation]} tanpa ulangan teratur`;
      case 'print':
        return `motif cetak tidak beraturan dengan detail sekitar ${w.featureSize}${scale}`;
    }
  },
  patternShort(w) {
    switch (w.kind) {
      case 'solid':
        return 'polos';
      case 'stripes':
        return `garis ${idOrientation[w.orientation]}`;
      case 'check':
        return 'kotak-kotak';
      case 'directional':
        return `tekstur ${idOrientation[w.orientation]}`;
      case 'print':
        return 'motif cetak';
    }
  },
  fabricLabels: {
    fabric_name: 'kain',
    composition: 'komposisi',
    weight: 'gramasi',
    transparency: 'transparansi',
    luster: 'kilau',
    drape: 'jatuh kain',
    touch: 'sentuhan',
    thickness: 'ketebalan',
    model_guidance: 'model',
    color_restrictions: 'batasan warna',
    accessories: 'aksesori',
    scene: 'latar',
    suggested_uses: 'penggunaan',
  },
  orientationNames: { horizontal: 'horizontal', vertical: 'vertikal', diagonal: 'diagonal', check: 'kotak-kotak', none: 'tidak ada' },
  scaleNames: { fine: 'kecil', medium: 'sedang', large: 'besar', none: 'tidak ada' },
  itemSeparator: '; ',
  labelSeparator: ': ',
  styleSeparator: ', ',
  colorWithShare: (name, hex, pct) => `${name} ${hex} (${pct})`,
  styleWords: {
    graphic: 'grafis tegas',
    classic: 'klasik',
    minimal: 'bersih minimalis',
    playful: 'berani ceria',
    airy: 'lembut ringan',
    refined: 'kalem elegan',
    vibrant: 'cerah',
    natural: 'natural',
  },
  moodWords: {
    calm: 'tenang, ringan',
    crisp: 'percaya diri, tegas',
    moody: 'dalam, elegan',
    lively: 'hidup, ceria',
    relaxed: 'santai, natural',
  },
  textureWords: { smooth: 'halus', fine: 'bertekstur halus', pronounced: 'bertekstur jelas' },
  tone(t) {
    const lightness = { light: 'terang', medium: 'sedang', dark: 'gelap' }[t.lightness];
    const contrast = { low: 'rendah', medium: 'sedang', high: 'tinggi' }[t.contrast];
    const colour = { muted: 'lembut', moderate: 'sedang', vivid: 'cerah' }[t.colourfulness];
    const warmth = { warm: 'hangat', neutral: 'netral', cool: 'sejuk' }[t.warmth];
    return `nada ${lightness}, kontras ${contrast}, warna ${colour}, palet ${warmth}`;
  },
  analysis: {
    intro: (p, m) =>
      `Analisis pratinjau lokal oleh mesin bawaan, diukur dari ${p} gambar motif dan ${m} gambar model (tanpa model AI).`,
    patternImage: (i, d) => (i === null ? `Motif: ${d}.` : `Gambar motif ${i}: ${d}.`),
    colors: (list) => `Warna dominan: ${list}.`,
    overall: (t) => `Secara keseluruhan: ${t}.`,
    texture: (level, energy) => `Detail permukaan: ${id.textureWords[level]} (energi tekstur ${energy} pada skala 0–1).`,
    fabric: (d) => `Dari formulir kain: ${d}.`,
    model: (n, lightness, colors) =>
      `Foto model (${n}): sebagian besar bernada ${{ light: 'terang', medium: 'sedang', dark: 'gelap' }[lightness]}, dengan warna ${colors}.`,
    noModel: 'Tidak ada foto model, jadi kandidat berupa komposisi motif.',
    noPattern: 'Tidak ada gambar motif; warna dan nada diambil dari foto model.',
    noImages: 'Tidak ada gambar; analisis hanya berdasarkan formulir kain dan deskripsi Anda.',
    style: (s) => `Arah gaya: ${s}.`,
    uses: (u) => `Saran penggunaan: ${u}.`,
    scene: (s) => `Latar: ${s}.`,
    notes: (d) => `Catatan Anda: ${d}.`,
    closing: 'Ini adalah hasil pengukuran dan masukan Anda sendiri, bukan penilaian AI; cocokkan dengan kain aslinya.',
    summary: (pattern, colors, tone) => `${capitalise(pattern)}; warna ${colors}; ${tone}.`,
    imagePrompt: ({ prompt, fabric, facts, extras }) =>
      joinNonEmpty(
        [
          prompt,
          fabric && `${fabric}.`,
          `Motif: ${facts.pattern}. Warna: ${facts.colors}. Nada: ${id.tone(facts.tone)}.`,
          `Gaya: ${facts.style}.`,
          extras,
        ],
        ' ',
      ),
    moments: ({ name, patternShort, colors, hand, selling, uses, market }) =>
      joinNonEmpty(
        [
          `${name}: ${patternShort} warna ${colors}.`,
          hand && `Terasa ${hand}.`,
          selling && `${capitalise(selling)}.`,
          uses && `Cocok untuk ${uses}.`,
          market && `Untuk ${market}.`,
          'Hubungi kami untuk contoh kain.',
        ],
        ' ',
      ),
    defaultFabricName: 'Kain baru',
  },
  labels: {
    modelToned: 'Foto model dengan nada warna motif',
    modelPanel: 'Foto model dengan contoh motif dan palet',
    swatchTiled: 'Motif disusun berulang sesuai skala kain',
    swatchCloseUp: 'Motif dari dekat',
    colourway: (d) => `Pilihan warna: rona digeser ${d}°`,
    lookbook: 'Kisi lookbook',
    halfDrop: 'Ulangan half-drop',
    mirror: 'Ulangan cermin',
    paletteCard: 'Motif dengan kartu palet',
    modelReframed: 'Foto model, dibingkai ulang',
    modelWarm: 'Foto model, nada lebih hangat',
    modelCool: 'Foto model, nada lebih sejuk',
    modelHighKey: 'Foto model, terang high-key',
    modelMuted: 'Foto model, warna lembut',
    modelDetail: 'Foto model, potongan detail',
    modelGrid: 'Foto model berdampingan',
    variation: (n, c) => `Variasi ${n}: ${c}`,
    adjustments: {
      warmer: 'lebih hangat',
      cooler: 'lebih sejuk',
      brighter: 'lebih terang',
      darker: 'lebih gelap',
      softer: 'lebih lembut',
      vivid: 'lebih cerah',
      mono: 'hitam putih',
      tighter: 'potongan lebih rapat',
      detail: 'potongan detail',
      stronger: 'lebih kuat',
      gentler: 'lebih halus',
      asIs: 'apa adanya, dibingkai ulang',
    },
    tintedToward: (c) => `bernuansa ${c}`,
    hueShift: (d) => `pilihan warna ${d}°`,
  },
  video: {
    subject: (f) => f || 'kain',
    detail: ({ cams, subject, pattern, colors, luster }) =>
      `${cams} Dekat pada ${subject}: ${pattern} warna ${colors}${luster ? `, kilau ${luster} menangkap cahaya lembut` : ', tenunannya terlihat dalam cahaya lembut'}.`,
    follow: ({ cams, subject, pattern, drape }) =>
      `${cams} Kamera mengikuti ${pattern} saat ${subject} bergerak perlahan${drape ? ` dengan jatuh kain ${drape}` : ''}.`,
    reveal: ({ cams, subject, hand }) =>
      `${cams} Tampilan utuh mulai terlihat, ${subject} mengalir di setiap langkah${hand ? `, ${hand}` : ''}.`,
    scene: (s) => `Latar: ${s}.`,
    mood: (m) => `Suasana: ${m}.`,
    defaultScenes: ['studio terang dengan cahaya siang yang lembut', 'jalan kota saat senja', 'teras tepi laut di bawah cahaya pagi'],
  },
};

export const CATALOGUES: Record<Language, Catalogue> = {
  'zh-CN': zh,
  'en-US': en,
  'vi-VN': vi,
  'th-TH': th,
  'id-ID': id,
};

export function catalogue(language: Language): Catalogue {
  return CATALOGUES[language] ?? en;
}

/** Sentences and list items are joined with spaces, except in Chinese. */
export function sentenceSeparator(language: Language): string {
  return language === 'zh-CN' ? '' : ' ';
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function joinNonEmpty(parts: (string | false | undefined)[], separator: string): string {
  return parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '').join(separator);
}

/** "a, b and c" in the language's own way. */
export function listOf(items: string[], language: Language): string {
  return new Intl.ListFormat(language, { style: 'long', type: 'conjunction' }).format(items);
}

export function formatNumber(value: number, language: Language, fractionDigits = 0): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: fractionDigits, minimumFractionDigits: 0 }).format(value);
}

export function formatPercent(share: number, language: Language): string {
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(share);
}
