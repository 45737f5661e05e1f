import type { Readable } from 'node:stream';

/**
 * Where file bytes live (docs/files.md). Objects are named by a key (`<workspaceId>/<fileId>`) and are written
 * and read as streams, never held in memory whole. Two drivers: `local` (a directory, the default) and `s3` (an
 * S3-compatible bucket). A client transfers bytes through short-lived capability URLs: the S3 driver presigns
 * them; the local driver has none of its own (null), and api-v1 serves its capability URLs instead.
 */
export interface FileStorage {
  readonly driver: 'local' | 's3';
  /** A presigned PUT of exactly `sizeBytes` bytes of `contentType` to `key` until `expiresAt`; null: the API serves the upload. */
  presignUpload(key: string, upload: { contentType: string; sizeBytes: number; expiresAt: Date; now: Date }): Promise<string | null>;
  /** A presigned GET of `key` until `expiresAt`, served with this content type and download name; null: the API serves it. */
  presignDownload(key: string, download: { contentType: string; fileName: string; expiresAt: Date; now: Date }): Promise<string | null>;
  /**
   * Streams `body` into `key`. The object appears only once all of it is stored (a temporary object is renamed or
   * the multipart upload completes), so a reader never sees a partial object; on any failure nothing is left.
   */
  write(key: string, body: Readable, meta: { contentType: string; sizeBytes: number }): Promise<void>;
  /** The stored object as a stream with its size, or null when there is none. */
  read(key: string): Promise<{ body: Readable; sizeBytes: number; contentType: string | null } | null>;
  /** Removes the object; removing a missing one is no error. */
  remove(key: string): Promise<void>;
  /**
   * Removes what interrupted writes left behind and nothing has touched since `before` (the local driver's
   * temporary files); the number removed. S3 keeps no such state for single PUTs (0).
   */
  removeAbandoned(before: Date): Promise<number>;
}
