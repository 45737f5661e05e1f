import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { FileStorageS3Config } from '@workcell/config';
import type { Readable } from 'node:stream';
import { contentDisposition } from './content-disposition.js';
import type { FileStorage } from './storage.js';

/** Seconds from `now` to `expiresAt`, at least 1 (a presigned URL's lifetime). */
const secondsUntil = (expiresAt: Date, now: Date) => Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / 1000));

/**
 * The S3-compatible driver: presigned PUTs that sign Content-Length and Content-Type (S3 refuses any other size or
 * type), presigned GETs that set the response's Content-Type and Content-Disposition, and streamed reads for the
 * completion's checksum. S3 cannot make a presigned URL single-use: until it expires the client may PUT again,
 * and completion verifies whatever is stored then.
 */
export class S3FileStorage implements FileStorage {
  readonly driver = 's3' as const;
  readonly client: S3Client;

  constructor(private readonly settings: FileStorageS3Config) {
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint === null ? {} : { endpoint: settings.endpoint }),
      // A copy: the SDK marks the credentials object it is given, and the configuration is frozen.
      ...(settings.credentials === null ? {} : { credentials: { ...settings.credentials } }),
      // The SDK's default adds CRC checksums to PUTs, which a presigned URL's client cannot know in advance.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  presignUpload(key: string, { contentType, sizeBytes, expiresAt, now }: { contentType: string; sizeBytes: number; expiresAt: Date; now: Date }): Promise<string> {
    const command = new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, ContentType: contentType, ContentLength: sizeBytes });
    return getSignedUrl(this.client, command, { expiresIn: secondsUntil(expiresAt, now), signableHeaders: new Set(['content-type', 'content-length']), signingDate: now });
  }

  presignDownload(key: string, { contentType, fileName, expiresAt, now }: { contentType: string; fileName: string; expiresAt: Date; now: Date }): Promise<string> {
    const command = new GetObjectCommand({ Bucket: this.settings.bucket, Key: key, ResponseContentType: contentType, ResponseContentDisposition: contentDisposition(fileName) });
    return getSignedUrl(this.client, command, { expiresIn: secondsUntil(expiresAt, now), signingDate: now });
  }

  async write(key: string, body: Readable, { contentType, sizeBytes }: { contentType: string; sizeBytes: number }): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: sizeBytes }));
  }

  async read(key: string): Promise<{ body: Readable; sizeBytes: number; contentType: string | null } | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return { body: object.Body as Readable, sizeBytes: Number(object.ContentLength ?? 0), contentType: object.ContentType ?? null };
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  /** A single PUT leaves nothing behind when interrupted (a bucket lifecycle rule covers multipart uploads). */
  async removeAbandoned(): Promise<number> {
    return 0;
  }
}
