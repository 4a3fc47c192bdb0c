import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isPhotoKey, isSafeKey, type Storage } from './storage.ts';

// Photos on the server's own disk under DATA_DIR/uploads, served at /uploads/ (http/uploads-static.ts).

/** Keys are made by the server, but a key must never reach outside the uploads folder whatever it holds. */
function assertSafeKey(key: string) {
  if (!isSafeKey(key)) throw new Error(`Invalid storage key: ${key}`);
}

const PUBLIC_PREFIX = '/uploads/';

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;

  constructor(private readonly root: string) {}

  async put(key: string, data: Buffer, _contentType: string): Promise<string> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside then renamed, so a reader never gets half a photo.
    const partial = `${file}.${randomUUID()}.part`;
    try {
      await writeFile(partial, data);
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return this.urlFor(key);
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  urlFor(key: string): string {
    assertSafeKey(key);
    return `${PUBLIC_PREFIX}${key}`;
  }

  ownsPhotoUrl(url: string): boolean {
    return url.startsWith(PUBLIC_PREFIX) && isPhotoKey(url.slice(PUBLIC_PREFIX.length));
  }

  /** The file a key lives in. */
  pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }
}
