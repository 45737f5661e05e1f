import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const cache = new Map<'v0' | 'v1', { readonly text: string; readonly etag: string }>();

/**
 * The generated OpenAPI document of a generation, as the exact committed bytes (served as-is, so what a
 * client downloads is what the drift test checked) and a strong ETag of them.
 */
export function openApiDocument(generation: 'v0' | 'v1'): { readonly text: string; readonly etag: string } {
  let document = cache.get(generation);
  if (!document) {
    const text = readFileSync(new URL(`../generated/${generation}.openapi.json`, import.meta.url), 'utf8');
    document = { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` };
    cache.set(generation, document);
  }
  return document;
}
