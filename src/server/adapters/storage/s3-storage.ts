import type { S3Client } from '@aws-sdk/client-s3';
import { isPhotoKey, type Storage } from './storage.ts';

// Photos in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, …), fetched by browsers from its public URL.

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Only for services other than AWS itself. */
  endpoint?: string | undefined;
  forcePathStyle: boolean;
  /** Public base URL of the bucket, without a trailing slash. */
  publicUrl: string;
  /** Absent: the SDK's own credential chain (instance role, AWS_* variables). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** Keys hold a random id, so an object never changes: browsers and CDNs may keep it for a year. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

type Sdk = typeof import('@aws-sdk/client-s3');

export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  /** The SDK is large and warns about Node versions when loaded: load it only when a bucket is in use. */
  private connection: Promise<{ sdk: Sdk; client: S3Client }> | undefined;

  constructor(private readonly options: S3StorageOptions) {}

  private connect() {
    this.connection ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: this.options.region,
        forcePathStyle: this.options.forcePathStyle,
        ...(this.options.endpoint ? { endpoint: this.options.endpoint } : {}),
        ...(this.options.credentials ? { credentials: this.options.credentials } : {}),
        // The SDK's default extra checksums are refused by several S3-compatible services; S3 needs none here.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }));
    return this.connection;
  }

  async put(key: string, data: Buffer, contentType: string): Promise<string> {
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.options.bucket,
        Key: key,
        Body: data,
        ContentType: contentType,
        ContentLength: data.length,
        CacheControl: IMMUTABLE_CACHE_CONTROL,
      }),
    );
    return this.urlFor(key);
  }

  async delete(key: string): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  urlFor(key: string): string {
    return `${this.options.publicUrl}/${key}`;
  }

  ownsPhotoUrl(url: string): boolean {
    const base = `${this.options.publicUrl}/`;
    return url.startsWith(base) && isPhotoKey(url.slice(base.length));
  }

  /** Closes the SDK's keep-alive sockets (at shutdown, and in tests). */
  async destroy(): Promise<void> {
    if (this.connection) (await this.connection).client.destroy();
  }
}
