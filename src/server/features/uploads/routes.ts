import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LIMITS } from '#shared/constants.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import { AppError, badRequest } from '../../errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { type ImageQueue, UploadsBusyError } from './image-queue.ts';
import { preparePhotos, type ReceivedImage, storePhotos } from './service.ts';

// POST /api/upload/proxy (spec §7): the list and edit forms send up to 5 photos in the field `images`.

const MAX_IMAGES = LIMITS.photosPerItem;
const MAX_IMAGE_BYTES = LIMITS.photoBytes;

const uploadResponse = z.object({ success: z.literal(true), urls: z.array(z.string()) });

/** Reads every part into memory (at most 5 × 5 MB); any other field, or a limit passed, refuses the lot. */
async function receiveImages(request: FastifyRequest): Promise<ReceivedImage[]> {
  if (!request.isMultipart()) {
    throw new AppError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the photos as multipart/form-data in the field "images".',
    );
  }
  const images: ReceivedImage[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' || part.fieldname !== 'images') {
        throw badRequest(`Unexpected field "${part.fieldname}": send photos as files in the field "images".`);
      }
      images.push({ filename: part.filename, data: await part.toBuffer() });
    }
  } catch (error) {
    discardRestOfBody(request);
    throw toUploadError(error);
  }
  if (images.length === 0) throw badRequest('No images received.');
  return images;
}

function toUploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return badRequest(`You can upload a maximum of ${MAX_IMAGES} images.`);
    case 'FST_REQ_FILE_TOO_LARGE': {
      const name = (error as { part?: { filename?: string } }).part?.filename ?? 'file';
      return new AppError(413, 'PAYLOAD_TOO_LARGE', `Files too large (max 5MB): ${name}`);
    }
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest('This form has too many fields.');
    default:
      // A body cut short or without a boundary is the client's problem, not a 500.
      return badRequest('The upload could not be read. Please try again.');
  }
}

/**
 * After an early refusal the browser is still sending; read and drop the rest (as Node does for an unread
 * body) so it receives our answer instead of a reset connection. Past any honest upload's size, hang up.
 */
function discardRestOfBody(request: FastifyRequest) {
  const raw = request.raw;
  if (raw.readableEnded) return;
  raw.unpipe();
  let discarded = 0;
  raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > (MAX_IMAGES + 1) * MAX_IMAGE_BYTES) raw.destroy();
  });
  raw.resume();
}

export const uploadRoutes: FastifyPluginAsyncZod<{ storage: Storage; imageQueue: ImageQueue }> = async (
  app,
  { storage, imageQueue },
) => {
  // Scoped to this plugin: no other route accepts multipart bodies.
  await app.register(multipart, {
    limits: { files: MAX_IMAGES, fileSize: MAX_IMAGE_BYTES, fields: 10, parts: 15 },
  });
  // Before the body is read: a signed-out upload is refused without receiving 25 MB first.
  app.addHook('onRequest', async (request) => {
    requireUser(request);
  });

  const rateLimit = {
    max: 30,
    timeWindow: 60_000,
    // Per person rather than per IP: a campus shares a few addresses. Runs after the sign-in check.
    keyGenerator: (request: FastifyRequest) => `upload:${request.user?.id ?? request.ip}`,
    errorResponseBuilder: () => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'Too many uploads. Please wait a minute and try again.',
    }),
  };

  app.post(
    '/upload/proxy',
    { config: { rateLimit }, schema: { response: { 200: uploadResponse } } },
    async (request) => {
      // Full already: say so before receiving up to 25 MB.
      if (imageQueue.isFull()) {
        discardRestOfBody(request);
        throw new UploadsBusyError();
      }
      const images = await receiveImages(request);
      const photos = await imageQueue.run(() => preparePhotos(images));
      let urls: string[];
      try {
        urls = await storePhotos(storage, photos);
      } catch (error) {
        request.log.error({ err: error, storage: storage.kind }, 'storing photos failed');
        throw new AppError(
          503,
          'STORAGE_UNAVAILABLE',
          'Photo storage is not available right now. Please try again later.',
        );
      }
      return { success: true as const, urls };
    },
  );
};
