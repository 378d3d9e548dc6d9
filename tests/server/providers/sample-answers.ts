// Answers a text model would give, in the JSON shapes the adapters ask for.
export const SAMPLE_ANALYSIS = {
  analysis:
    'The print is a dense floral on a café cream ground 🌸.\nCrimson "rose" heads dominate; the voile is light, so the pattern will float when the dress moves.',
  summary: 'A crimson floral on cream voile, light and fluid.',
  colors: [
    { hex: '#F4E9D8', name: 'cream', share: 0.35 },
    { hex: '#C0392B', name: 'crimson', share: 0.55 },
  ],
  pattern: { kind: 'floral', scale: 'medium', orientation: 'tossed', repeat: 'half-drop' },
  texture: 'sheer, fine plain weave',
  image_prompt: 'A model in a flowing summer dress of crimson floral voile on cream, soft daylight.',
  moments_text: 'Summer in bloom: our Rose voile, light as air. #RoseVoile',
  style: 'romantic resort',
};

export const SAMPLE_VIDEO_PROMPTS = {
  prompts: [
    { prompt: 'The model turns slowly; the voile skirt lifts and floats.', camera: ['push in'], scene: 'terrace at sunset', mood: 'serene' },
    { prompt: 'She walks toward the camera, the hem ripples with each step.', camera: ['Tracking shot', 'Pan left'], scene: 'garden path', mood: 'joyful' },
    { prompt: 'A breeze moves the sleeves; light glints on the fabric.', camera: ['Static shot'], scene: 'studio, white backdrop', mood: 'calm' },
  ],
};

export const SAMPLE_ENHANCED_TEXT = { text: 'Rose voile: a featherlight cotton with a crimson floral, made for summer.', confidence: 0.82 };
