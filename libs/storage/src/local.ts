import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStorage } from './storage.js';

const KEY = /^[A-Za-z0-9-]+(\/[A-Za-z0-9-]+)*$/;

/**
 * The local disk driver: objects under `<dir>/objects/<key>`, written to `<dir>/tmp/` first and renamed into place
 * (same filesystem, so the rename is atomic). Its capability URLs are api-v1's (presign answers null).
 */
export class LocalFileStorage implements FileStorage {
  readonly driver = 'local' as const;
  private readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error('invalid storage key');
    const path = join(this.root, 'objects', ...key.split('/'));
    if (!path.startsWith(join(this.root, 'objects') + sep)) throw new Error('invalid storage key');
    return path;
  }

  async presignUpload(_key: string, _upload: unknown): Promise<null> {
    return null;
  }

  async presignDownload(_key: string, _download: unknown): Promise<null> {
    return null;
  }

  async write(key: string, body: Readable, _meta: { contentType: string; sizeBytes: number }): Promise<void> {
    const target = this.pathOf(key);
    const tmp = join(this.root, 'tmp', randomUUID());
    await mkdir(dirname(tmp), { recursive: true });
    await mkdir(dirname(target), { recursive: true });
    try {
      await pipeline(body, createWriteStream(tmp, { flags: 'wx' }));
      await rename(tmp, target);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  async read(key: string): Promise<{ body: Readable; sizeBytes: number; contentType: null } | null> {
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    // The size of the very file opened (a later rename onto the path cannot change what this handle reads).
    const { size } = await handle.stat();
    return { body: handle.createReadStream(), sizeBytes: size, contentType: null };
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async removeAbandoned(before: Date): Promise<number> {
    const dir = join(this.root, 'tmp');
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      const path = join(dir, name);
      // A write in progress touches its file with every chunk: only one idle since `before` is abandoned.
      const info = await stat(path).catch(() => null);
      if (info && info.mtime.getTime() < before.getTime()) {
        await rm(path, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
