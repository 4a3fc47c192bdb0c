import multipart from '@fastify/multipart';
import { msg } from '@lingui/core/macro';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { LIMITS } from '#shared/constants.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import { AppError } from '../../errors.ts';
import { signedInRoutes } from '../../http/route-scopes.ts';
import { tooManyRequests } from '../../rate-limited.ts';
import { type ImageQueue, UploadsBusyError } from './image-queue.ts';
import { discardRestOfBody, receiveFiles } from './receive.ts';
import { pixelsOf, preparePhotos, storePhotos } from './service.ts';

// POST /api/upload/proxy (spec §7): the list and edit forms send up to 5 photos in the field `images`.

const MAX_IMAGES = LIMITS.photosPerItem;

const uploadResponse = z.object({ success: z.literal(true), urls: z.array(z.string()) });

export const uploadRoutes = signedInRoutes<{ storage: Storage; imageQueue: ImageQueue }>(
  async (app, { storage, imageQueue }) => {
    // Scoped to this plugin: only these routes and the profile photo's (Account settings) accept multipart bodies.
    await app.register(multipart, {
      limits: { files: MAX_IMAGES, fileSize: LIMITS.photoBytes, fields: 10, parts: 15 },
    });
    // Before the body is read: a signed-out upload is refused without receiving 25 MB first.

    const rateLimit = {
      max: 30,
      timeWindow: 60_000,
      // Per person rather than per IP: a campus shares a few addresses. Runs after the sign-in check.
      keyGenerator: (request: FastifyRequest) => `upload:${request.user?.id ?? request.ip}`,
      errorResponseBuilder: tooManyRequests(msg`Too many uploads. Please wait a minute and try again.`),
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
        const images = await receiveFiles(request, { field: 'images', maxFiles: MAX_IMAGES });
        const photos = await imageQueue.run(() => preparePhotos(images), await pixelsOf(images));
        let urls: string[];
        try {
          urls = await storePhotos(storage, photos);
        } catch (error) {
          request.log.error({ err: error, storage: storage.kind }, 'storing photos failed');
          throw new AppError(
            503,
            'STORAGE_UNAVAILABLE',
            msg`Photo storage is not available right now. Please try again later.`,
          );
        }
        return { success: true as const, urls };
      },
    );
  },
);
