// The upscale service's messages in the PWA's five languages (chosen from Accept-Language the same
// way as the main API's; Chinese when nothing matches). The sentences are the "upscale" dictionary
// (server/locales/<language>/upscale.json); the Chinese file names the keys.
import { localeFrom } from '../../http/messages.js';
import { readDictionary, translate, type Vars } from '../../i18n/server-i18n.js';
import type upscaleZh from '../../locales/zh-CN/upscale.json';

export type UpscaleMessageKey = keyof typeof upscaleZh;
export const upscaleMessageKeys = Object.keys(readDictionary('zh-CN', 'upscale')) as UpscaleMessageKey[];

export function upscaleMessage(
  key: UpscaleMessageKey,
  acceptLanguage: string | undefined,
  vars: Vars = {},
): string {
  return translate('upscale', localeFrom(acceptLanguage), key, vars);
}
