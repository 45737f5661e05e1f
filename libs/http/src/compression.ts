import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noneMatchHits } from './preconditions.js';

export type ContentCoding = 'br' | 'gzip' | 'identity';

export type Compressed = Exclude<ContentCoding, 'identity'>;

/**
 * A body in a coding. Brotli's quality defaults to 6: a sixth larger than 11 on these documents and about 60 times
 * faster (Scalar's 4 MB script: ~150 ms at 6, ~10 s at 11), for bodies compressed while a service runs; a build
 * step can afford more (reference-assets.ts).
 */
export function compress(coding: Compressed, body: Buffer, brotliQuality = 6): Promise<Buffer> {
  if (coding === 'gzip') return promisify(gzip)(body, { level: 9 });
  return promisify(brotliCompress)(body, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
}

/**
 * The content coding to answer with (RFC 9110 12.5.3): `br` when the client accepts it, else `gzip`, else none.
 * `q=0` refuses a coding; `*` stands for the codings not named.
 */
export function negotiateCoding(header: string | string[] | undefined): ContentCoding {
  const weights = new Map<string, number>();
  for (const part of [header ?? ''].flat().join(',').split(',')) {
    const [coding = '', ...params] = part.toLowerCase().split(';');
    const name = coding.trim();
    if (name === '') continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0 || weight('x-gzip') > 0) return 'gzip';
  return 'identity';
}

/** Bodies smaller than this are sent as they are: compressing them saves less than the coding's overhead. */
const MIN_COMPRESSED_BYTES = 1024;

/**
 * A response body that does not change while the process runs (an OpenAPI document, the reference page and its
 * script), compressed once per coding on first use and then served from memory: a request costs no compression,
 * so serving the 4 MB page script or the 1 MB document to any number of clients costs no CPU beyond sending it.
 * Each coding is its own representation, with its own strong ETag (the identity ETag plus `-br` or `-gzip`).
 */
export class Precompressed {
  private readonly variants = new Map<ContentCoding, Promise<Buffer>>();
  readonly etag: string;

  /** `prebuilt`: codings made ahead of time (at build), used instead of compressing. */
  constructor(
    readonly body: Buffer,
    etag?: string,
    prebuilt: Partial<Record<Compressed, Buffer>> = {},
  ) {
    this.etag = etag ?? `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    for (const [coding, bytes] of Object.entries(prebuilt)) this.variants.set(coding as Compressed, Promise.resolve(bytes));
  }

  private variant(coding: ContentCoding): Promise<Buffer> {
    if (coding === 'identity') return Promise.resolve(this.body);
    let variant = this.variants.get(coding);
    if (!variant) {
      variant = compress(coding, this.body);
      this.variants.set(coding, variant);
    }
    return variant;
  }

  /**
   * Sets the representation's headers on the reply (Vary, ETag, Content-Encoding) and returns the bytes to send:
   * the negotiated coding, or nothing with 304 when If-None-Match names this representation.
   */
  async respond(request: FastifyRequest, reply: FastifyReply): Promise<Buffer | ''> {
    const coding = this.body.length < MIN_COMPRESSED_BYTES ? 'identity' : negotiateCoding(request.headers['accept-encoding']);
    const etag = coding === 'identity' ? this.etag : `${this.etag.slice(0, -1)}-${coding}"`;
    void reply.header('vary', 'accept-encoding').header('etag', etag);
    if (noneMatchHits(request.headers['if-none-match'], etag)) {
      void reply.code(304);
      return '';
    }
    if (coding !== 'identity') void reply.header('content-encoding', coding);
    return this.variant(coding);
  }

  /** Sends it as the reply, with its content type. */
  async send(request: FastifyRequest, reply: FastifyReply, contentType: string): Promise<FastifyReply> {
    const payload = await this.respond(request, reply);
    return reply.type(contentType).send(payload);
  }
}
