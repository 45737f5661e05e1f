import type { FilesConfig } from '@workcell/config';
import { LocalFileStorage } from './local.js';
import { S3FileStorage } from './s3.js';
import type { FileStorage } from './storage.js';

export type { FileStorage } from './storage.js';
export { LocalFileStorage } from './local.js';
export { contentDisposition, S3FileStorage } from './s3.js';

const drivers = new WeakMap<FilesConfig, FileStorage>();

/** The storage of a configuration (one client per configuration object, made on first use). */
export function fileStorage(config: FilesConfig): FileStorage {
  let storage = drivers.get(config);
  if (!storage) {
    if (config.driver === 's3' && config.s3 === null) throw new Error('FILE_STORAGE_DRIVER=s3 needs FILE_S3_BUCKET');
    storage = config.driver === 's3' ? new S3FileStorage(config.s3!) : new LocalFileStorage(config.dir);
    drivers.set(config, storage);
  }
  return storage;
}
