// A multipart form read into memory under an upload budget, for the image and workshop groups. The
// body's declared length is reserved before a byte of it is read (admitForm), each file chunk is
// counted as it arrives, and a file the form cannot take is refused as its part arrives, before its
// bytes are read. A malformed body (no boundary, a truncated part, something that is not a form) is
// the client's mistake: a 400 in the envelope, never a 500 with a stack in the log.
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';
import { hasNul, nulRefusal } from './nul-guard.js';
import type { UploadBudget, UploadHold } from './upload-budget.js';
import { isDatabaseUnavailable } from '../db/database-unavailable.js';
import { isStorageUnavailable } from '../storage/storage-unavailable.js';

/**
 * Finished resumable uploads, referenced in a form instead of a file part: a text field
 * `<field>_upload_id` (or `<field>_upload_id[]`) whose value is an upload's id stands for a file of
 * `<field>` (server/modules/uploads/ provides it; this layer names only what it asks of it).
 */
export interface UploadReferences {
  /** The finished upload `id` of user `userId`: its name, length and purpose; an AppError 404 or 409 otherwise. */
  find(id: string, userId: number): Promise<{ name: string; length: number; purpose: string }>;
  /** Its bytes (an AppError 404 when the store has lost them). */
  read(id: string): Promise<Buffer>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set where the server speaks tus: forms may then reference finished uploads. */
    uploadReferences?: UploadReferences;
  }
}

const REFERENCE_FIELD = /^(.+)_upload_id(\[\])?$/;

/**
 * The file field a text field references an upload for, when this server takes references and the
 * request is a signed-in user's: `image_upload_id` → `image`; else undefined (an ordinary field).
 */
export function referencedField(request: FastifyRequest, fieldname: string): string | undefined {
  if (!request.server.uploadReferences || !request.user) return undefined;
  return REFERENCE_FIELD.exec(fieldname)?.[1];
}

/**
 * The file a reference stands for, its length counted against `count` (the form's budget) before
 * a byte is read; `admit` decides, with its name, whether it is kept (undefined when not).
 */
export async function referencedFile(
  request: FastifyRequest,
  id: string,
  count: (bytes: number) => void,
  admit: (name: string) => boolean = () => true,
): Promise<{ name: string; data: Buffer } | undefined> {
  const references = request.server.uploadReferences!;
  const found = await references.find(id.trim(), request.user!.id);
  if (!admit(found.name)) return undefined;
  count(found.length);
  return { name: found.name, data: await references.read(id.trim()) };
}

export interface FormLimits {
  /** bytes of one file */
  fileSize: number;
  /** file parts the parser lets through (kept or not) */
  files: number;
  fields: number;
  fieldSize: number;
}

export interface FormField {
  field: string;
  value: string;
}

export interface FormUpload {
  field: string;
  /** the file's name, or its field's when it has none */
  name: string;
  data: Buffer;
}

/** What a form with `keptFiles` files at most can hold, framing included: the most a request reserves. */
export function formBytes(limits: FormLimits, keptFiles: number): number {
  return keptFiles * limits.fileSize + limits.fields * limits.fieldSize + 64 * 1024;
}

/**
 * Before the body is read: a multipart request reserves its declared length (never more than
 * `maxBytes`, so a false length cannot take the whole budget), or is refused with the budget's
 * busy error. Anything else was read by its parser already and reserves nothing.
 */
export function admitForm(request: FastifyRequest, budget: UploadBudget, maxBytes: number): UploadHold {
  if (!request.isMultipart()) return budget.reserve(0);
  const declared = Number(request.headers['content-length']) || 0;
  return budget.reserve(Math.min(declared, maxBytes));
}

export interface ReadFormOptions {
  limits: FormLimits;
  hold: UploadHold;
  /**
   * Called as a file part arrives, before any of its bytes are read: true keeps it, false reads
   * and drops it (an unknown field); a throw refuses the request there.
   */
  admitFile: (field: string, name: string) => boolean;
  /** The refusal of a file larger than limits.fileSize. */
  tooLarge: (name: string) => AppError;
  /** The refusal when more than limits.files file parts arrive (default: the plugin's 413). */
  tooManyFiles?: () => AppError;
}

export async function readForm(
  request: FastifyRequest,
  o: ReadFormOptions,
): Promise<{ fields: FormField[]; files: FormUpload[] }> {
  const fields: FormField[] = [];
  const files: FormUpload[] = [];
  let current = '';
  let referencedFiles = 0;
  let fileParts = 0;
  try {
    const parts = request.parts({ limits: { ...o.limits, parts: o.limits.files + o.limits.fields } });
    for await (const part of parts) {
      // The edge's NUL rule (nul-guard.ts), for the text of a form: its fields and names.
      if (hasNul(part.fieldname) || (part.type === 'field' ? hasNul(part.value) : hasNul(part.filename))) throw nulRefusal(request, part.fieldname);
      if (part.type === 'field') {
        const referenced = typeof part.value === 'string' ? referencedField(request, part.fieldname) : undefined;
        if (referenced !== undefined) {
          // A finished upload standing for a file of `referenced`: the same checks, in the order sent.
          current = referenced;
          const file = await referencedFile(request, part.value as string, (bytes) => {
            if (bytes > o.limits.fileSize) throw o.tooLarge(current);
            o.hold.count(bytes);
          }, (name) => {
            current = name;
            if (!o.admitFile(referenced, name)) return false;
            referencedFiles += 1;
            if (referencedFiles + fileParts > o.limits.files) throw o.tooManyFiles?.() ?? new AppError(413, 'payload_too_large');
            return true;
          });
          if (file) files.push({ field: referenced, ...file });
          continue;
        }
        if (typeof part.value === 'string') fields.push({ field: part.fieldname, value: part.value });
        continue;
      }
      fileParts += 1;
      current = part.filename || part.fieldname;
      const keep = o.admitFile(part.fieldname, current);
      const chunks: Buffer[] = [];
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        o.hold.count(chunk.length);
        if (keep) chunks.push(chunk);
      }
      if (part.file.truncated) throw o.tooLarge(current);
      if (keep) files.push({ field: part.fieldname, name: current, data: Buffer.concat(chunks) });
    }
  } catch (error) {
    discardRestOfBody(request);
    throw formError(error, current, o);
  }
  // From here the hold is what is kept: the framing and the dropped files are gone.
  o.hold.settle(files.reduce((sum, f) => sum + f.data.length, 0));
  return { fields, files };
}

function formError(error: unknown, current: string, o: ReadFormOptions): unknown {
  if (error instanceof AppError) return error;
  // A referenced upload read while PostgreSQL restarts or the bucket does not answer: the error
  // handler answers 503 with Retry-After, and the client sends the form again.
  if (isDatabaseUnavailable(error) || isStorageUnavailable(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_FILES_LIMIT' && o.tooManyFiles) return o.tooManyFiles();
  if (code === 'FST_REQ_FILE_TOO_LARGE') return o.tooLarge(current);
  // The plugin's own limits and refusals carry their statuses (413, 400) for the error handler.
  if (typeof code === 'string' && code.startsWith('FST_')) return error;
  // Anything else is the parser on a malformed body: no boundary, a part cut short, not a form.
  return new AppError(400, 'invalid_multipart');
}

/**
 * After a refusal part-way through the body: the parser has stopped reading and the socket is
 * paused, so a client still sending would never be read from again (not even its hang-up) and its
 * connection would linger until a timeout. The rest is read and dropped, never kept.
 */
export function discardRestOfBody(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  raw.unpipe();
  raw.resume();
}
