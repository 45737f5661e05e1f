/**
 * The v1 resource envelope (documented in v1.openapi.json): a single resource as `{ data }`, a list as
 * `{ data, meta: { limit, nextCursor }, links: { next } }`, where `links.next` is the relative URL of the
 * next page (the same path and filters, with the cursor) and both are null on the last page.
 */
export function single<T>(data: T): { data: T } {
  return { data };
}

export function list<T>(
  items: readonly T[],
  page: { limit: number; nextCursor: string | null },
  request: { url: string },
): { data: readonly T[]; meta: { limit: number; nextCursor: string | null }; links: { next: string | null } } {
  let next: string | null = null;
  if (page.nextCursor !== null) {
    const url = new URL(request.url, 'http://relative.invalid');
    url.searchParams.set('cursor', page.nextCursor);
    url.searchParams.set('limit', String(page.limit));
    next = `${url.pathname}${url.search}`;
  }
  return { data: items, meta: { limit: page.limit, nextCursor: page.nextCursor }, links: { next } };
}
