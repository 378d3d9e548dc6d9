// Reads an upscale request's multipart body into memory: image files (field "image" or "images",
// in arrival order) and text fields. Each file is capped at the upload limit; an oversized file
// is kept as a marker (`tooLarge`) so a batch can report it per item while a single call refuses
// (the plugin is registered with throwFileSizeLimit: false for that).
import type { FastifyRequest } from 'fastify';
import { UpscaleHttpError } from './upscale-http-error.js';
import { isDatabaseUnavailable } from '../../db/database-unavailable.js';
import { isStorageUnavailable } from '../../storage/storage-unavailable.js';
import { AppError } from '../../http/app-error.js';
import { hasNul, nulRefusal } from '../../http/nul-guard.js';
import { referencedField, referencedFile } from '../../http/multipart-form.js';

export interface UploadedFile {
  filename: string;
  data: Buffer;
  tooLarge: boolean;
}

export interface Upload {
  files: UploadedFile[];
  fields: Record<string, string>;
}

const FILE_FIELDS = new Set(['image', 'images', 'images[]', 'file', 'files']);

export async function readUpload(
  request: FastifyRequest,
  limits: { fileSize: number; files: number },
  /** told of each file chunk as it arrives; may throw to stop reading (the upload budget) */
  onChunk: (bytes: number) => void = () => {},
): Promise<Upload> {
  if (!request.isMultipart()) throw new UpscaleHttpError(415, 'not_multipart');
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  let parts: ReturnType<FastifyRequest['parts']>;
  try {
    parts = request.parts({
      limits: {
        fileSize: limits.fileSize,
        files: limits.files,
        fields: 20,
        fieldSize: 4096,
        parts: limits.files + 20,
      },
    });
  } catch {
    // A multipart content type without a usable boundary.
    throw new UpscaleHttpError(400, 'bad_request');
  }
  try {
    for await (const part of parts) {
      // The edge's NUL rule (nul-guard.ts), for the text of this form too.
      if (hasNul(part.fieldname) || (part.type === 'field' ? hasNul(part.value) : hasNul(part.filename))) throw nulRefusal(request, part.fieldname);
      if (part.type === 'field') {
        const referenced = typeof part.value === 'string' ? referencedField(request, part.fieldname) : undefined;
        if (referenced !== undefined && FILE_FIELDS.has(referenced)) {
          // A finished resumable upload standing for an image part, in the order sent.
          if (files.length >= limits.files) throw new UpscaleHttpError(413, 'too_many_files', { max: limits.files });
          const file = await referencedFile(request, part.value as string, onChunk);
          if (file) files.push({ filename: file.name, data: file.data, tooLarge: file.data.length > limits.fileSize });
          continue;
        }
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) {
        onChunk((chunk as Buffer).length);
        chunks.push(chunk as Buffer);
      }
      // Unknown file fields are drained and ignored, like unknown text fields.
      if (!FILE_FIELDS.has(part.fieldname)) continue;
      const tooLarge = part.file.truncated;
      files.push({
        filename: part.filename || 'image',
        data: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks),
        tooLarge,
      });
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw new UpscaleHttpError(413, 'too_many_files', { max: limits.files });
    // The plugin's own errors map to their statuses; anything else is busboy on a malformed body.
    if (error instanceof UpscaleHttpError || error instanceof AppError || code?.startsWith('FST_')) throw error;
    // A referenced upload read while PostgreSQL restarts or the bucket does not answer: 503 with
    // Retry-After (upscale-http-error.ts), which the PWA resends, not a malformed body.
    if (isDatabaseUnavailable(error) || isStorageUnavailable(error)) throw error;
    throw new UpscaleHttpError(400, 'bad_request');
  }
  return { files, fields };
}
