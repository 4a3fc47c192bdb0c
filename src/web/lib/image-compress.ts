// Spec §5 photos: shrink big photos in the browser before upload, so phones on campus Wi-Fi send less.
// The server re-encodes every photo anyway; this only saves bandwidth and time.

export const COMPRESS_THRESHOLD_BYTES = 1024 * 1024;
export const MAX_DIMENSION = 1920;
/** The list/edit form's quality (spec §9); the standalone helper uses 0.8. */
export const FORM_JPEG_QUALITY = 0.85;
export const HELPER_JPEG_QUALITY = 0.8;

function readFile(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('Failed to read file'));
    reader.onerror = () => reject(new Error('Failed to read file'));
    reader.readAsDataURL(file);
  });
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('Failed to load image'));
    image.src = src;
  });
}

/** Scales so neither side exceeds `maxDimension` (never enlarges) and encodes as JPEG. */
export async function resizeImage(
  file: Blob,
  maxDimension = MAX_DIMENSION,
  quality = HELPER_JPEG_QUALITY,
): Promise<Blob> {
  const image = await loadImage(await readFile(file));
  const scale = Math.min(1, maxDimension / Math.max(image.naturalWidth, image.naturalHeight));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
  canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('Failed to get canvas context');
  // JPEG has no transparency: a transparent PNG would otherwise turn black.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('Failed to compress image'))),
      'image/jpeg',
      quality,
    );
  });
}

/**
 * Spec §5: an image over 1 MB becomes a JPEG within 1920×1920 at quality 0.85 when that makes it smaller;
 * anything else is returned as it is.
 */
export async function compressImage(file: File): Promise<File> {
  if (!file.type.startsWith('image/') || file.size <= COMPRESS_THRESHOLD_BYTES) return file;
  const compressed = await resizeImage(file, MAX_DIMENSION, FORM_JPEG_QUALITY);
  if (compressed.size >= file.size) return file;
  const name = `${file.name.replace(/\.[^./]*$/, '') || 'photo'}.jpg`;
  return new File([compressed], name, { type: 'image/jpeg', lastModified: file.lastModified });
}
