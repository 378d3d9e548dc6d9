// Spec §5/§9: at most 6 model images, 6 pattern images and 10 in all (shared/generation/
// image-limits.ts), each a JPEG, PNG, GIF or WebP of at most 10 MB (shared/images/image-types.ts).
// Adding files keeps what fits, in order, and says how many are there now and how many could not
// be added.
import { MAX_IMAGES_TOTAL, MAX_MODEL_IMAGES, MAX_PATTERN_IMAGES } from '../../../../shared/generation/image-limits';
import { MAX_IMAGE_BYTES, isAcceptedImageType } from '../../../../shared/images/image-types';

export { MAX_IMAGE_BYTES, MAX_IMAGES_TOTAL, MAX_MODEL_IMAGES, MAX_PATTERN_IMAGES };

export type ImageRole = 'model' | 'pattern';

export interface AddPlan {
  /** How many of the offered files to take (the first ones). */
  accepted: number;
  /** Offered files that could not be added for the limits. */
  rejected: number;
  /** Which limit stopped them: the role's own or the total. */
  limit: 'none' | 'role' | 'total';
  /** Images of this role after adding. */
  roleCount: number;
  totalCount: number;
}

export function roleLimit(role: ImageRole): number {
  return role === 'model' ? MAX_MODEL_IMAGES : MAX_PATTERN_IMAGES;
}

export function planAdd(role: ImageRole, counts: Record<ImageRole, number>, offered: number): AddPlan {
  const total = counts.model + counts.pattern;
  const roomRole = Math.max(0, roleLimit(role) - counts[role]);
  const roomTotal = Math.max(0, MAX_IMAGES_TOTAL - total);
  const accepted = Math.min(offered, roomRole, roomTotal);
  const rejected = offered - accepted;
  const limit = rejected === 0 ? 'none' : roomRole <= roomTotal ? 'role' : 'total';
  return { accepted, rejected, limit, roleCount: counts[role] + accepted, totalCount: total + accepted };
}

export type FileRefusal = 'type' | 'size';

export function refuseFile(file: { type: string; size: number }): FileRefusal | null {
  if (!isAcceptedImageType(file.type)) return 'type';
  if (file.size > MAX_IMAGE_BYTES) return 'size';
  return null;
}
