// Which files a collection's lookbook holds: each row's chosen image and its video, once made,
// described for the naming template (row, code, name, stage, extension) with the link to fetch.
import type { CollectionItemView } from '../../../../shared/collections/collection-types';
import type { NamingFile } from '../../../lib/collections/naming-template';

export interface LookbookFile {
  file: NamingFile;
  url: string;
}

export interface LookbookChoice {
  images: boolean;
  videos: boolean;
}

/** The link's own extension (".jpg" of /files/12/a.jpg?sig=…), else the kind's usual one. */
export function extensionOf(url: string, fallback: string): string {
  try {
    const last = new URL(url, 'http://base.invalid').pathname.split('/').pop() ?? '';
    const match = /\.([a-z0-9]{2,5})$/i.exec(last);
    return match?.[1] ? `.${match[1].toLowerCase()}` : fallback;
  } catch {
    return fallback;
  }
}

export function pickedImage(item: CollectionItemView) {
  return item.candidates.find((c) => c.image_id === item.picked_image_id) ?? null;
}

/** `items` in the collection's order; a row's number ({index}) is its place there, from 1. */
export function lookbookFiles(items: readonly CollectionItemView[], choice: LookbookChoice): LookbookFile[] {
  const files: LookbookFile[] = [];
  for (const [index, item] of items.entries()) {
    const base = { row: index + 1, code: item.code, name: item.name };
    const image = pickedImage(item);
    if (choice.images && image?.status === 'completed' && image.url) {
      files.push({ file: { ...base, stage: 'pick', extension: extensionOf(image.url, '.png') }, url: image.url });
    }
    if (choice.videos && item.video?.status === 'completed' && item.video.url) {
      files.push({ file: { ...base, stage: 'video', extension: extensionOf(item.video.url, '.mp4') }, url: item.video.url });
    }
  }
  return files;
}
