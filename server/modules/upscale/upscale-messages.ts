// The upscale service's messages in the PWA's five languages (chosen from Accept-Language the same
// way as the main API's; Chinese when nothing matches). The sentences are the "upscale" dictionary
// (server/locales/<language>/upscale.json); the Chinese file names the keys. What the upscale
// service says as the main API does (signed out, no permission, not found, a database restart, a
// storage outage, an internal error, a resumable upload it cannot use) is read from the main catalogue (messages.json), not copied.
// Three codes the two share keep a sentence of the upscale service's own: queue_full (the service is busy, not the
// person's own generations waiting) and the two shape refusals (no file name to quote).
import { localeFrom, message, type MessageKey } from '../../http/messages.js';
import { readDictionary, translate, type Vars } from '../../i18n/server-i18n.js';
import type upscaleZh from '../../locales/zh-CN/upscale.json';

const FROM_MAIN_CATALOGUE = [
  'unauthorized',
  'forbidden',
  'not_found',
  'internal_error',
  'database_unavailable',
  'storage_unavailable',
  // A form's reference to a resumable upload that cannot stand for its file.
  'upload_not_found',
  'upload_incomplete',
] as const satisfies readonly MessageKey[];
type MainCatalogueKey = (typeof FROM_MAIN_CATALOGUE)[number];

export type UpscaleMessageKey = keyof typeof upscaleZh | MainCatalogueKey;
export const upscaleMessageKeys = [
  ...Object.keys(readDictionary('zh-CN', 'upscale')),
  ...FROM_MAIN_CATALOGUE,
] as UpscaleMessageKey[];

const fromMainCatalogue = (key: UpscaleMessageKey): key is MainCatalogueKey =>
  (FROM_MAIN_CATALOGUE as readonly string[]).includes(key);

export function upscaleMessage(
  key: UpscaleMessageKey,
  acceptLanguage: string | undefined,
  vars: Vars = {},
): string {
  const locale = localeFrom(acceptLanguage);
  return fromMainCatalogue(key) ? message(key, locale, vars) : translate('upscale', locale, key, vars);
}
