import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** The S3RVER server's fixed access key pair (it checks signatures against it). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface LocalS3 {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  readonly bucket: string;
  /** The environment settings of a cell storing files in this bucket. */
  readonly settings: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * An S3-compatible server (s3rver) for a test: on a free port of 127.0.0.1, with one bucket, its data in a
 * temporary directory removed on close. Signatures are checked, so a presigned URL's signed headers are enforced.
 */
export async function startLocalS3(bucket = 'workcell-files'): Promise<LocalS3> {
  const directory = await mkdtemp(join(tmpdir(), 'workcell-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }], vhostBuckets: false });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    settings: {
      FILE_STORAGE_DRIVER: 's3',
      FILE_S3_ENDPOINT: endpoint,
      FILE_S3_BUCKET: bucket,
      FILE_S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      FILE_S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
