import { msg, plural } from '@lingui/core/macro';
import type { FastifyRequest } from 'fastify';
import { LIMITS } from '#shared/constants.ts';
import { AppError, badRequest } from '../../errors.ts';

// Reading a multipart upload into memory, for item photos (field `images`, up to 5) and the profile photo
// (field `photo`, one). The route's plugin registers @fastify/multipart with its own limits.

export interface ReceivedImage {
  filename: string;
  data: Buffer;
}

const MAX_IMAGE_BYTES = LIMITS.photoBytes;

/** Reads every part into memory; any other field, or a limit passed, refuses the lot. */
export async function receiveFiles(
  request: FastifyRequest,
  { field, maxFiles }: { field: string; maxFiles: number },
): Promise<ReceivedImage[]> {
  const one = maxFiles === 1;
  if (!request.isMultipart()) {
    throw new AppError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      one
        ? msg`Send the photo as multipart/form-data in the field "${field}".`
        : msg`Send the photos as multipart/form-data in the field "${field}".`,
    );
  }
  const images: ReceivedImage[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' || part.fieldname !== field) {
        const unexpected = part.fieldname;
        throw badRequest(
          one
            ? msg`Unexpected field "${unexpected}": send the photo as files in the field "${field}".`
            : msg`Unexpected field "${unexpected}": send the photos as files in the field "${field}".`,
        );
      }
      if (images.length === maxFiles)
        throw Object.assign(new Error('too many files'), { code: 'FST_FILES_LIMIT' });
      images.push({ filename: part.filename, data: await part.toBuffer() });
    }
  } catch (error) {
    discardRestOfBody(request, maxFiles);
    throw toUploadError(error, maxFiles);
  }
  if (images.length === 0) throw badRequest(one ? msg`No photo received.` : msg`No images received.`);
  return images;
}

function toUploadError(error: unknown, maxFiles: number): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return badRequest(
        maxFiles === 1
          ? msg`Send one photo at a time.`
          : msg`You can upload a maximum of ${plural(maxFiles, { one: '# image', other: '# images' })}.`,
      );
    case 'FST_REQ_FILE_TOO_LARGE': {
      const name = (error as { part?: { filename?: string } }).part?.filename ?? 'file';
      return new AppError(413, 'PAYLOAD_TOO_LARGE', msg`Files too large (max 5MB): ${name}`);
    }
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest(msg`This form has too many fields.`);
    default:
      // A body cut short or without a boundary is the client's problem, not a 500.
      return badRequest(msg`The upload could not be read. Please try again.`);
  }
}

/**
 * After an early refusal the browser is still sending; read and drop the rest (as Node does for an unread
 * body) so it receives our answer instead of a reset connection. Past any honest upload's size, hang up.
 */
export function discardRestOfBody(request: FastifyRequest, maxFiles: number = LIMITS.photosPerItem) {
  const raw = request.raw;
  if (raw.readableEnded) return;
  raw.unpipe();
  let discarded = 0;
  raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > (maxFiles + 1) * MAX_IMAGE_BYTES) raw.destroy();
  });
  raw.resume();
}
