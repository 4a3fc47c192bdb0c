import { msg } from '@lingui/core/macro';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, badRequest } from '../../errors.ts';

// Uploads: trust the bytes, not the name; refuse decompression bombs; apply the camera's
// orientation; drop every piece of metadata (GPS above all); fit within 1920 px; re-encode; make a thumbnail.

/** Types read from the file's own bytes. HEIC, SVG (script) and the rest are refused. */
const ACCEPTED_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

/** Checked from the header before any pixel is decoded: a 5 MB file can unpack to gigabytes. */
export const MAX_INPUT_PIXELS = 40_000_000;
/**
 * PNG and GIF compress a plain area to almost nothing, so a small file can cost seconds of CPU (a
 * 38 KB PNG of 6300 × 6300 took 1.25 s): a lower budget for them. No camera writes PNG or GIF;
 * photos come as JPEG, WebP or AVIF, which keep MAX_INPUT_PIXELS.
 */
export const MAX_COMPRESSIBLE_PIXELS = 16_000_000;
const COMPRESSIBLE_TYPES = new Set(['image/png', 'image/gif']);
/**
 * Pixels one upload may ask to decode, all its photos together: five phone photos of 12 megapixels fit,
 * five PNGs of 4000 × 4000 (46 KB each, 1 s of CPU and 48 MB decoded apiece) do not. The process as a
 * whole has its own budget (image-queue.ts).
 */
export const MAX_UPLOAD_PIXELS = 64_000_000;
export const MAX_DIMENSION = 1920;
/** Spec §2 item cards are at most ~400 px wide; 480 keeps them sharp on dense screens at a fraction of the bytes. */
export const THUMBNAIL_DIMENSION = 480;

export interface ProcessedImage {
  full: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
}

const unreadable = () => badRequest(msg`This file is empty or not a readable image.`);

/**
 * libvips is loaded with the first photo, not at start: an instance that serves no upload never pays
 * its ~30 MB (docs/performance.md).
 */
const loadSharp = async () => {
  const sharp = (await import('sharp')).default;
  // libvips keeps recent operations and their pixels for reuse; every photo here is decoded once, so the
  // cache only holds memory (tens of MB after a burst) that nothing will read again.
  sharp.cache(false);
  return sharp;
};

/** A profile photo is a square this big, and its thumbnail (header, cards, chat) this. */
export const AVATAR_DIMENSION = 512;
export const AVATAR_THUMBNAIL_DIMENSION = 128;

/** The same checks as an item photo's, cropped to a centred square (the part most worth keeping). */
export async function processAvatar(buffer: Buffer): Promise<ProcessedImage> {
  const { sharp, budget, type } = await checkImage(buffer);
  try {
    // As for item photos: no metadata is written (EXIF, GPS, ICC all go), only the first frame kept.
    const full = await sharp(buffer, { limitInputPixels: budget })
      .autoOrient()
      .resize({
        width: AVATAR_DIMENSION,
        height: AVATAR_DIMENSION,
        fit: 'cover',
        position: sharp.strategy.attention,
      })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    const thumb = await sharp(full.data)
      .resize({ width: AVATAR_THUMBNAIL_DIMENSION, height: AVATAR_THUMBNAIL_DIMENSION })
      .jpeg({ quality: 78, mozjpeg: true })
      .toBuffer();
    return { full: full.data, thumb, width: full.info.width, height: full.info.height };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw tooManyPixels(type, budget);
    throw unreadable();
  }
}

/** The type from the bytes, and the pixel count from the header, before anything is decoded. */
async function checkImage(buffer: Buffer) {
  if (buffer.length === 0) throw unreadable();
  const type = await fileTypeFromBuffer(buffer);
  if (!type || !ACCEPTED_TYPES.has(type.mime)) {
    throw new AppError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      msg`Only JPEG, PNG, WebP, GIF or AVIF images can be uploaded.`,
    );
  }
  const sharp = await loadSharp();
  const budget = COMPRESSIBLE_TYPES.has(type.mime) ? MAX_COMPRESSIBLE_PIXELS : MAX_INPUT_PIXELS;
  const pixels = await requireWithinBudget(sharp, buffer, type, budget);
  return { sharp, budget, type, pixels };
}

/**
 * The pixels an upload's photos will decode to, read from their headers (nothing decoded yet): each
 * photo is checked as it will be processed, and together they must fit the upload's budget.
 */
export async function countPixels(buffers: readonly Buffer[]): Promise<number> {
  let total = 0;
  for (const buffer of buffers) total += (await checkImage(buffer)).pixels;
  if (total > MAX_UPLOAD_PIXELS) {
    const megapixels = MAX_UPLOAD_PIXELS / 1_000_000;
    throw new AppError(
      400,
      'TOO_MANY_PIXELS',
      msg`Together these photos have too many pixels (max ${megapixels} megapixels in one upload). Send fewer at once, or smaller ones.`,
    );
  }
  return total;
}

export async function processImage(buffer: Buffer): Promise<ProcessedImage> {
  const { sharp, budget, type } = await checkImage(buffer);
  try {
    // sharp writes no metadata unless asked (no keepMetadata/withMetadata here): EXIF, GPS, XMP, IPTC
    // and ICC all go, and colours are converted to sRGB. Only the first frame of an animation is kept.
    const full = await sharp(buffer, { limitInputPixels: budget })
      .autoOrient()
      .resize({ width: MAX_DIMENSION, height: MAX_DIMENSION, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    // Made from the already oriented, stripped copy: a second decode of the original costs more.
    const thumb = await sharp(full.data)
      .resize({
        width: THUMBNAIL_DIMENSION,
        height: THUMBNAIL_DIMENSION,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .jpeg({ quality: 75, mozjpeg: true })
      .toBuffer();
    return { full: full.data, thumb, width: full.info.width, height: full.info.height };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw tooManyPixels(type, budget);
    throw unreadable();
  }
}

function tooManyPixels(type: { mime: string; ext: string }, budget: number): AppError {
  const megapixels = budget / 1_000_000;
  const format = type.ext.toUpperCase();
  return new AppError(
    400,
    'TOO_MANY_PIXELS',
    COMPRESSIBLE_TYPES.has(type.mime)
      ? msg`This ${format} image has too many pixels (max ${megapixels} megapixels for PNG and GIF). Save it as a JPEG, or make it smaller.`
      : msg`This image has too many pixels (max ${megapixels} megapixels).`,
  );
}

/** The size from the header alone (no pixel decoded), against the type's budget. */
async function requireWithinBudget(
  sharp: Awaited<ReturnType<typeof loadSharp>>,
  buffer: Buffer,
  type: { mime: string; ext: string },
  budget: number,
): Promise<number> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(buffer).metadata());
  } catch {
    throw unreadable();
  }
  if (!width || !height) throw unreadable();
  if (width * height > budget) throw tooManyPixels(type, budget);
  return width * height;
}
