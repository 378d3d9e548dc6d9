// What the text and image models are asked, shared by the Gemini and OpenAI-compatible adapters
// so both providers get the same task. The instructions are in English (the models follow them
// best); the answer's language is named explicitly.
import type {
  AnalyseInput,
  EnhanceInput,
  FabricInfo,
  ImageGenerationInput,
  Language,
  PromptWriterInput,
} from '../capabilities.js';
import { CAMERA_MOVES } from '../capabilities.js';

export const LANGUAGE_NAME: Record<Language, string> = {
  'zh-CN': 'Simplified Chinese',
  'en-US': 'English',
  'vi-VN': 'Vietnamese',
  'th-TH': 'Thai',
  'id-ID': 'Indonesian',
};

const FABRIC_LABELS: Record<keyof FabricInfo, string> = {
  fabric_name: 'Fabric name',
  composition: 'Composition',
  weight: 'Weight (g/m²)',
  transparency: 'Transparency',
  luster: 'Luster',
  drape: 'Drape',
  touch: 'Touch',
  thickness: 'Thickness',
  suggested_uses: 'Suggested uses',
  scene: 'Scene recommendations',
  model_guidance: 'Model image guidance',
  color_restrictions: 'Colour restrictions',
  accessories: 'Accessories',
  style: 'Style guidance',
  target_market: 'Target market',
  selling_points: 'Key selling points',
  remarks: 'Other remarks',
};

/** The filled-in fields of the fabric form, one "- Label: value" line each. */
export function fabricLines(fabric: FabricInfo): string {
  const lines = (Object.keys(FABRIC_LABELS) as (keyof FabricInfo)[])
    .map((key) => [FABRIC_LABELS[key], fabric[key]?.trim()] as const)
    .filter(([, value]) => value)
    .map(([label, value]) => `- ${label}: ${value}`);
  return lines.length > 0 ? lines.join('\n') : '- (not filled in)';
}

export function analysisInstructions(language: Language): string {
  return [
    'You are a textile and fashion analyst working with a fabric designer.',
    'You get the designer\'s image prompt, the fabric information form, model images (people or garments to dress) and pattern images (fabric swatches or prints).',
    'Answer with one JSON object that follows the given schema, fields in the schema\'s order.',
    '`analysis` comes first: the analysis as readable prose for the designer (a few short paragraphs: the pattern and its colours, the texture and how the fabric will look and move given the form, how it suits the models and the intended uses and scene).',
    '`colors`: up to 8 dominant colours measured from the pattern images, as #RRGGBB hex with a short name and the share (0 to 1) of the pattern area they cover, largest share first.',
    '`pattern`: its kind (floral, geometric, stripe, check, solid, abstract, …), scale, orientation and repeat.',
    '`image_prompt`: a detailed prompt for an image model that dresses the model(s) in garments made from this fabric, faithful to the pattern, colours and fabric facts and to the designer\'s prompt and restrictions.',
    '`moments_text`: short marketing copy for a social post (selling points, target market), at most three hashtags.',
    `Write every text field in ${LANGUAGE_NAME[language]}, except hex codes.`,
  ].join('\n');
}

export function analysisRequestText(input: Pick<AnalyseInput, 'prompt' | 'fabric' | 'description'>): string {
  return [
    `Designer's image prompt: ${input.prompt.trim() || '(none)'}`,
    input.description?.trim() ? `Quick description: ${input.description.trim()}` : undefined,
    'Fabric information:',
    fabricLines(input.fabric),
  ]
    .filter((line): line is string => line !== undefined)
    .join('\n');
}

/** Compositions the candidates are spread over, so six candidates are six different pictures. */
const CANDIDATE_SHOTS: { brief: string; label: Record<Language, string> }[] = [
  {
    brief: 'full-body front view of the model standing, the whole garment visible',
    label: { 'zh-CN': '全身正面', 'en-US': 'Full body, front', 'vi-VN': 'Toàn thân, chính diện', 'th-TH': 'เต็มตัว ด้านหน้า', 'id-ID': 'Seluruh badan, depan' },
  },
  {
    brief: 'three-quarter view of the model walking, the fabric moving',
    label: { 'zh-CN': '行走侧身', 'en-US': 'Walking, three-quarter', 'vi-VN': 'Đang bước, góc ba phần tư', 'th-TH': 'กำลังเดิน มุมสามในสี่', 'id-ID': 'Berjalan, tiga perempat' },
  },
  {
    brief: 'half-body shot close enough to show the drape and texture of the fabric',
    label: { 'zh-CN': '半身细节', 'en-US': 'Half body, detail', 'vi-VN': 'Nửa người, chi tiết', 'th-TH': 'ครึ่งตัว รายละเอียด', 'id-ID': 'Setengah badan, detail' },
  },
  {
    brief: 'side or back view showing the silhouette of the garment',
    label: { 'zh-CN': '侧背轮廓', 'en-US': 'Side or back silhouette', 'vi-VN': 'Dáng nghiêng hoặc sau lưng', 'th-TH': 'ด้านข้างหรือด้านหลัง', 'id-ID': 'Siluet samping atau belakang' },
  },
  {
    brief: 'lifestyle scene that fits the suggested uses and scene of the fabric',
    label: { 'zh-CN': '场景氛围', 'en-US': 'Lifestyle scene', 'vi-VN': 'Bối cảnh đời thường', 'th-TH': 'ฉากไลฟ์สไตล์', 'id-ID': 'Adegan gaya hidup' },
  },
  {
    brief: 'close-up of the garment fabric showing the pattern, colours and surface',
    label: { 'zh-CN': '面料特写', 'en-US': 'Fabric close-up', 'vi-VN': 'Cận cảnh vải', 'th-TH': 'ภาพระยะใกล้ของผ้า', 'id-ID': 'Close-up kain' },
  },
];

export function candidateShot(index: number, language: Language): { brief: string; label: string } {
  const shot = CANDIDATE_SHOTS[index % CANDIDATE_SHOTS.length]!;
  return { brief: shot.brief, label: shot.label[language] };
}

/** The image model's instruction for one candidate. */
export function candidateImagePrompt(input: ImageGenerationInput, index: number): string {
  const shot = candidateShot(index, input.language);
  const hasModel = input.sources.some((s) => s.role === 'model' || s.role === 'source');
  const hasPattern = input.sources.some((s) => s.role === 'pattern');
  const facts = input.analysis
    ? `Fabric facts: ${input.analysis.texture}; pattern ${input.analysis.pattern.kind}, ${input.analysis.pattern.scale} scale, ${input.analysis.pattern.orientation}; colours ${input.analysis.colors
        .map((c) => `${c.name} ${c.hex}`)
        .join(', ')}.`
    : undefined;
  return [
    'Create one photorealistic fashion photograph.',
    input.prompt.trim(),
    hasModel ? 'Keep the person from the model image (face, body, pose style) recognisable.' : undefined,
    hasPattern ? 'Make the garment from the fabric in the pattern image, reproducing its pattern, colours and scale faithfully.' : undefined,
    facts,
    `This picture: ${shot.brief}.`,
    'No text, logos or watermarks in the picture.',
  ]
    .filter((line): line is string => Boolean(line))
    .join('\n');
}

export function videoPromptInstructions(input: PromptWriterInput): string {
  return [
    'You write prompts for an image-to-video model that animates the given image (it is the first frame) into a short fashion video that sells the fabric.',
    `Write ${input.count} clearly different options as JSON following the given schema.`,
    '`prompt`: at most 600 characters; what moves and how (the model\'s motion, how the fabric drapes, flows, catches light), consistent with the fabric facts. Do not write camera commands in brackets in it.',
    `\`camera\`: one to three camera moves from this list, combined in one shot: ${CAMERA_MOVES.join(', ')}.`,
    '`scene`: the setting in a few words. `mood`: the feeling in a few words.',
    `Write prompt, scene and mood in ${LANGUAGE_NAME[input.language]}.`,
  ].join('\n');
}

export function videoPromptRequestText(input: PromptWriterInput): string {
  return [
    `Designer's wishes: ${input.userPrompt.trim() || '(none)'}`,
    'Fabric information:',
    fabricLines(input.fabric),
    input.analysis ? `Earlier analysis: ${input.analysis.summary} Texture: ${input.analysis.texture}. Style: ${input.analysis.style}.` : undefined,
  ]
    .filter((line): line is string => line !== undefined)
    .join('\n');
}

const STYLE_BRIEF: Record<EnhanceInput['style'], string> = {
  natural: 'natural and faithful, nothing added that was not there',
  creative: 'creative, free to rephrase and enrich',
  professional: 'professional and precise, industry vocabulary, concise',
  artistic: 'artistic and evocative',
};

/** How freely to change things, from the workshop's creativity and precision sliders. */
function latitude(input: EnhanceInput): string {
  const creative = input.creativity >= 0.66 ? 'You may change a lot.' : input.creativity >= 0.33 ? 'Change moderately.' : 'Change as little as needed.';
  const precise = input.precision >= 0.66 ? 'Keep every fact, number and detail exactly.' : input.precision >= 0.33 ? 'Keep the important facts and details.' : 'Details may be simplified.';
  return `${creative} ${precise}`;
}

export function enhanceTextInstructions(input: EnhanceInput): string {
  return [
    'You improve texts for a fashion and fabric company (product descriptions, marketing copy, prompts).',
    `Style: ${STYLE_BRIEF[input.style]}. ${latitude(input)}`,
    input.images.length > 0 ? 'The attached images show what the text is about; use them for facts.' : undefined,
    'Answer as JSON following the given schema: `text` is the improved text; `confidence` (0 to 1) is how sure you are that it is better than the original.',
    `Write the text in ${LANGUAGE_NAME[input.language]}.`,
  ]
    .filter((line): line is string => line !== undefined)
    .join('\n');
}

export function enhanceImagePrompt(input: EnhanceInput): string {
  return [
    'Improve this image for fashion marketing: sharper detail, clean even lighting, true colours of the fabric.',
    `Style: ${STYLE_BRIEF[input.style]}. ${latitude(input)}`,
    'Keep the people, the garments, the pattern and the composition the same. No text, logos or watermarks.',
    input.text?.trim() ? `The designer's note: ${input.text.trim()}` : undefined,
  ]
    .filter((line): line is string => line !== undefined)
    .join('\n');
}

/** Sampling temperature from the workshop's creativity slider (0..1). */
export function creativityTemperature(creativity: number): number {
  return Math.round((0.2 + Math.min(1, Math.max(0, creativity)) * 1.0) * 100) / 100;
}
