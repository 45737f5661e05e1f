import { send } from './http.js';

/**
 * The validators a write must carry to get past its precondition (so a request reaches what it is about rather
 * than stopping at a 412/409): the current strong ETag for an If-Match operation, the current `version` for a
 * compare-and-set one. Read with a GET as the caller that will write.
 */

/** Indexes of a path template's `/` segments that hold a parameter. */
export const idSegments = (template: string): number[] => template.split('/').flatMap((s, i) => (s.includes('{') ? [i] : []));

const dataOf = (json: unknown): unknown => (json !== null && typeof json === 'object' ? (json as { data?: unknown }).data : undefined);

/** The ETag of the resource an If-Match operation is about: its path up to the template's first parameter. */
export async function currentEtag(baseUrl: string, template: string, path: string, token: string): Promise<string | undefined> {
  const resource = path
    .split('/')
    .slice(0, idSegments(template)[0]! + 1)
    .join('/');
  const got = await send(baseUrl, { method: 'GET', path: resource, headers: { authorization: `Bearer ${token}` } });
  return typeof got.headers.etag === 'string' ? got.headers.etag : undefined;
}

/**
 * The `version` a compare-and-set operation expects: of its own path where it has a GET (`…/custom-field-values`,
 * `/v1/workspace/settings`), else of the resource its last parameter names (`…/{id}/publish`), else of that
 * resource's item in its collection (a member's appointment has no GET of its own).
 */
export async function currentVersion(baseUrl: string, template: string, path: string, token: string): Promise<string | undefined> {
  const get = async (p: string) => dataOf((await send(baseUrl, { method: 'GET', path: p, headers: { authorization: `Bearer ${token}` } })).json);
  const versionOf = (data: unknown) =>
    data !== null && typeof data === 'object' && !Array.isArray(data) && typeof (data as { version?: unknown }).version === 'string' ? (data as { version: string }).version : undefined;
  const own = versionOf(await get(path));
  if (own !== undefined) return own;
  const segments = path.split('/');
  const last = idSegments(template).at(-1);
  if (last === undefined) return undefined;
  const resource = segments.slice(0, last + 1).join('/');
  if (resource !== path) {
    const version = versionOf(await get(resource));
    if (version !== undefined) return version;
  }
  const items = await get(segments.slice(0, last).join('/'));
  const item = Array.isArray(items) ? items.find((i) => (i as { id?: unknown } | null)?.id === segments[last]) : undefined;
  return versionOf(item);
}
