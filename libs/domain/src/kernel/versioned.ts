/**
 * What a single-resource procedure returns: the resource as the registry shapes it, and its stored
 * revision, which the edge sends as the strong `ETag` (the revision is not a field of every resource).
 */
export interface Versioned<T> {
  readonly resource: T;
  readonly revision: number;
}
