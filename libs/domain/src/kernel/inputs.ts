import { z } from 'zod';
import type { V1AuthContext } from './auth-context.js';
import { V1_MAX_PAGE_SIZE } from './limits.js';

/** The authenticated caller, exactly as the API app's guard established it. */
export const authInput = z.custom<V1AuthContext>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as V1AuthContext).workspaceId === 'string' &&
    typeof (value as V1AuthContext).principal === 'object' &&
    typeof (value as V1AuthContext).credential === 'object' &&
    Array.isArray((value as V1AuthContext).effectiveScopes),
  'an authenticated v1 context',
);

/**
 * Input of every write: the caller and the request id, for the audit trail. Where the registry declares the
 * request body, a write's input spreads that body's `shape` next to it (`{ ...writeInput, ...TagCreate.shape }`),
 * so each field's rule is declared once, in the schema the OpenAPI document and the edge are made from. Only the
 * fields are taken: a PATCH body's "send at least one attribute" stays at the edge (v0 PUTs reach the same
 * procedures with whatever attributes they carry).
 */
export const writeInput = { auth: authInput, requestId: z.string().max(128).nullable() };

/** Input of every list: the opaque cursor and the page size. */
export const pageInput = {
  cursor: z.string().min(1).max(1024).optional(),
  limit: z.number().int().min(1).max(V1_MAX_PAGE_SIZE).default(50),
};
