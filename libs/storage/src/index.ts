import type { FileStorageS3Config, FilesConfig } from '@workcell/config';
import { LocalFileStorage } from './local.js';
import type { FileStorage } from './storage.js';

export type { FileStorage } from './storage.js';
export { LocalFileStorage } from './local.js';
export { contentDisposition } from './content-disposition.js';

const drivers = new WeakMap<FilesConfig, FileStorage>();

/** The storage of a configuration (one client per configuration object, made on first use). */
export function fileStorage(config: FilesConfig): FileStorage {
  let storage = drivers.get(config);
  if (!storage) {
    if (config.driver === 's3' && config.s3 === null) throw new Error('FILE_STORAGE_DRIVER=s3 needs FILE_S3_BUCKET');
    storage = config.driver === 's3' ? s3Storage(config.s3!) : new LocalFileStorage(config.dir);
    drivers.set(config, storage);
  }
  return storage;
}

/**
 * The S3 driver (s3.ts), whose SDK is loaded by its first call: a process on the local driver, the default, never
 * loads it (importing it costs a process about 5 MB of heap and 24 MB of resident memory; docs/performance.md, the
 * fifteenth session).
 */
function s3Storage(settings: FileStorageS3Config): FileStorage {
  let loaded: Promise<FileStorage> | undefined;
  const s3 = () => (loaded ??= import('./s3.js').then(({ S3FileStorage }) => new S3FileStorage(settings)));
  return {
    driver: 's3',
    presignUpload: async (key, upload) => (await s3()).presignUpload(key, upload),
    presignDownload: async (key, download) => (await s3()).presignDownload(key, download),
    write: async (key, body, meta) => (await s3()).write(key, body, meta),
    read: async (key) => (await s3()).read(key),
    remove: async (key) => (await s3()).remove(key),
    removeAbandoned: async (before) => (await s3()).removeAbandoned(before),
  };
}
