// Where uploaded images live. Local disk is the embedded default; an S3-compatible bucket is chosen
// by configuration, so several instances can share one. Keys look like `items/2026/11/<uuid>.jpg`.

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Stores the bytes and answers the public URL the web app can show. */
  put(key: string, data: Buffer, contentType: string): Promise<string>;
  delete(key: string): Promise<void>;
  /** The public URL of a key. */
  urlFor(key: string): string;
  /**
   * Whether a URL is one this storage gives out for an item photo: an item lists only photos that were
   * uploaded here, never another site's (trackers), `data:` or an API path.
   */
  ownsPhotoUrl(url: string): boolean;
}

/** Letters, digits and `._-` in segments separated by single slashes: never `..`, never outside. */
export function isSafeKey(key: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(key) && !key.split('/').some((s) => s === '' || s === '..');
}

/** What `storePhotos` writes (`items/<yyyy>/<mm>/<uuid>.jpg` and its `-thumb.jpg`). */
export function isPhotoKey(key: string): boolean {
  return isSafeKey(key) && key.startsWith('items/') && key.endsWith('.jpg');
}
