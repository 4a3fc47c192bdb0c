import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { createStorage } from './create-storage.ts';
import { LocalStorage } from './local-storage.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-storage-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('createStorage', () => {
  it('keeps photos on local disk under DATA_DIR/uploads by default', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.s3).toBeUndefined();
    expect(config.uploadsDir).toBe(path.join(dataDir, 'uploads'));

    const storage = createStorage(config);
    expect(storage).toBeInstanceOf(LocalStorage);
    const url = await storage.put('items/2026/05/abc.jpg', Buffer.from('photo'), 'image/jpeg');
    expect(url).toBe('/uploads/items/2026/05/abc.jpg');
    const file = path.join(dataDir, 'uploads', 'items', '2026', '05', 'abc.jpg');
    expect(readFileSync(file, 'utf8')).toBe('photo');

    await storage.delete('items/2026/05/abc.jpg');
    expect(existsSync(file)).toBe(false);
    await storage.delete('items/2026/05/abc.jpg'); // already gone: no error
  });

  it('never writes outside the uploads folder', async () => {
    const storage = createStorage(loadConfig({ DATA_DIR: dataDir }));
    for (const key of ['../escape.jpg', 'items/../../escape.jpg', '/etc/passwd', 'items//a.jpg', '']) {
      await expect(storage.put(key, Buffer.from('x'), 'image/jpeg')).rejects.toThrow('Invalid storage key');
    }
  });

  it('knows its own photo URLs and no others', async () => {
    const storage = createStorage(loadConfig({ DATA_DIR: dataDir }));
    const url = await storage.put('items/2026/05/0b6c5a8e.jpg', Buffer.from('photo'), 'image/jpeg');
    expect(storage.ownsPhotoUrl(url)).toBe(true);
    expect(storage.ownsPhotoUrl('/uploads/items/2026/05/0b6c5a8e-thumb.jpg')).toBe(true);
    for (const foreign of [
      '/uploads/../data/pg/PG_VERSION',
      '/uploads/items/../../secret.jpg',
      '/uploads/avatars/a.jpg',
      '/uploads/items/2026/05/a.svg',
      '/api/auth/me',
      'https://tracker.example/uploads/items/2026/05/a.jpg',
      'data:image/jpeg;base64,AAAA',
    ]) {
      expect(storage.ownsPhotoUrl(foreign), foreign).toBe(false);
    }
  });

  it('uses an S3-compatible bucket when S3_BUCKET is set', () => {
    const config = loadConfig({
      S3_BUCKET: 'campus-photos',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_PUBLIC_URL: 'https://photos.campusloop.app/',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.s3).toEqual({
      bucket: 'campus-photos',
      region: 'auto',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      publicUrl: 'https://photos.campusloop.app',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    });
    const storage = createStorage(config);
    expect(storage.kind).toBe('s3');
    expect(storage.urlFor('items/2026/05/a.jpg')).toBe('https://photos.campusloop.app/items/2026/05/a.jpg');
  });

  it('names the missing or bad S3 settings', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ S3_BUCKET: 'campus-photos' })).toEqual([
      "S3_PUBLIC_URL: must be set when S3_BUCKET is: the bucket's public address, e.g. https://photos.campusloop.app",
    ]);
    expect(problems({ S3_BUCKET: 'b', S3_PUBLIC_URL: 'https://p.example', S3_ACCESS_KEY_ID: 'key' })).toEqual(
      [
        'S3_SECRET_ACCESS_KEY: must be set together with the other S3 key: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither',
      ],
    );
    expect(problems({ S3_ENDPOINT: 'minio:9000' })).toEqual([
      'S3_ENDPOINT: must be a URL such as https://<account>.r2.cloudflarestorage.com',
    ]);
  });
});
