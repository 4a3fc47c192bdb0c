// Where uploaded images live. Local disk is the embedded default; an S3-compatible bucket is chosen
// by configuration (ARCHITECTURE §1). Keys look like `items/2026/11/<uuid>.jpg`.

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Stores the bytes and answers the public URL the web app can show. */
  put(key: string, data: Buffer, contentType: string): Promise<string>;
  delete(key: string): Promise<void>;
  /** The public URL of a key. */
  urlFor(key: string): string;
}
