// The vocabulary built from the five dictionaries. Only their videoGeneration and collections
// sections are imported (named JSON imports), so the rest of each dictionary stays out of the
// sheet worker's chunk.
import { collections as enCollections, videoGeneration as enVideo } from '../../i18n/locales/en-US.json';
import { collections as idCollections, videoGeneration as idVideo } from '../../i18n/locales/id-ID.json';
import { collections as thCollections, videoGeneration as thVideo } from '../../i18n/locales/th-TH.json';
import { collections as viCollections, videoGeneration as viVideo } from '../../i18n/locales/vi-VN.json';
import { collections as zhCollections, videoGeneration as zhVideo } from '../../i18n/locales/zh-CN.json';
import { buildVocabulary, type Vocabulary } from './vocabulary';

let built: Vocabulary | undefined;

export function collectionVocabulary(): Vocabulary {
  built ??= buildVocabulary({
    'zh-CN': { videoGeneration: zhVideo, collections: zhCollections },
    'en-US': { videoGeneration: enVideo, collections: enCollections },
    'vi-VN': { videoGeneration: viVideo, collections: viCollections },
    'th-TH': { videoGeneration: thVideo, collections: thCollections },
    'id-ID': { videoGeneration: idVideo, collections: idCollections },
  });
  return built;
}
