import { z } from 'zod';

/**
 * Shared zod building blocks. Schemas that become OpenAPI components carry
 * `.meta({ id })`; everything else is inlined by the generator.
 *
 * Conventions (the contract leaves payloads "not shown"):
 * - camelCase field names, ISO-8601 timestamps (`...At`), ISO dates (`...On`),
 *   money as `{ amount: "<decimal string>", currency: "<ISO 4217>" }`;
 * - request bodies are strict objects (unknown keys -> 400);
 * - PATCH bodies are strict partials and must name at least one attribute;
 * - responses may grow new fields (clients must ignore unknown fields).
 */

export const ResourceId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)
  .describe('Opaque resource identifier.');

/**
 * Dates and instants the platform stores: years 0001-9999 (UTC for instants). PostgreSQL and JavaScript both
 * reach further, but not alike (PostgreSQL has no year 0, JavaScript serialises years past 9999 as `+010000`),
 * so a value outside this range is refused at the edge (400 with a pointer) instead of failing in the database.
 */
export const EARLIEST_INSTANT = '0001-01-01T00:00:00.000Z';
export const LATEST_INSTANT = '9999-12-31T23:59:59.999Z';
const EARLIEST_MS = Date.parse(EARLIEST_INSTANT);
const LATEST_MS = Date.parse(LATEST_INSTANT);

/** Whether an instant (epoch milliseconds) lies in the supported range; date arithmetic checks its result with it. */
export function isSupportedInstant(ms: number): boolean {
  return Number.isFinite(ms) && ms >= EARLIEST_MS && ms <= LATEST_MS;
}

export const Timestamp = z.iso
  .datetime({ offset: true })
  .max(64)
  .refine((value) => isSupportedInstant(Date.parse(value)), 'must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z (UTC)')
  .describe('RFC 3339 timestamp; in UTC between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z.');
export const DateOnly = z.iso
  .date()
  .max(10)
  .refine((value) => !value.startsWith('0000'), 'must lie between 0001-01-01 and 9999-12-31')
  .describe('ISO-8601 calendar date, 0001-01-01 to 9999-12-31.');

/**
 * An integer in a query or path parameter: decimal digits only. `z.coerce.number()` also took `0x10`, `1e2`,
 * `0b11`, `+2`, ` 2` and `2.0`; none of them is an integer's spelling here.
 */
export function decimalInteger(min: number, max: number) {
  return z
    .string()
    .refine((value) => /^[0-9]{1,16}$/.test(value), 'must be an integer written in decimal digits only (no sign, spaces, exponent, hex or fraction)')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .meta({ type: 'integer', minimum: min, maximum: max });
}
export const Name = z.string().trim().min(1).max(200);
export const ShortText = z.string().max(2000);
export const LongText = z.string().max(100_000);
export const Color = z
  .string()
  .max(7)
  .regex(/^#[0-9a-fA-F]{6}$/);
export const Email = z.email().max(320);
/** A time-zone name the runtime's IANA database knows (what every date computation will use). */
export function isKnownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
export const TimeZone = z.string().min(1).max(64).refine(isKnownTimeZone, 'an IANA time-zone name, e.g. Europe/Berlin').describe('IANA time-zone name, e.g. Europe/Berlin.');
export const CurrencyCode = z
  .string()
  .max(3)
  .regex(/^[A-Z]{3}$/)
  .describe('ISO-4217 currency code.');

export const Money = z
  .object({
    amount: z
      .string()
      .regex(/^-?\d{1,15}(\.\d{1,6})?$/)
      .describe('Decimal amount as a string (no floating point).'),
    currency: CurrencyCode,
  })
  .meta({ id: 'Money', description: 'A monetary amount.' });
/** A monetary amount in request form (a strict object) whose amount matches `amount`. */
function moneyInput(amount: z.ZodString, id: string, description: string) {
  return z.strictObject({ amount, currency: CurrencyCode }).meta({ id, description });
}
export const MoneyInput = moneyInput(
  z
    .string()
    .max(23)
    .regex(/^-?\d{1,15}(\.\d{1,6})?$/),
  'MoneyInput',
  'A monetary amount (request form).',
);
/** A price in request form: never negative (a negative price means nothing), stored exactly as numeric(21,6). */
export const PriceInput = moneyInput(
  z
    .string()
    .max(22)
    .regex(/^\d{1,15}(\.\d{1,6})?$/, 'a price is a non-negative decimal string with at most 15 integer and 6 fraction digits'),
  'PriceInput',
  'A price (request form): a non-negative amount.',
);
/** A billing rate in request form: never negative, stored as numeric(14,4). */
export const RateInput = moneyInput(
  z
    .string()
    .max(15)
    .regex(/^\d{1,10}(\.\d{1,4})?$/, 'a rate is a non-negative decimal with at most 10 integer and 4 fraction digits'),
  'RateInput',
  'A billing rate (request form): a non-negative amount with at most 10 integer and 4 fraction digits.',
);

/** Strong revision of projects, tasks and project templates (mirrored in the quoted `ETag`). */
export const Revision = z.string().min(1).max(128).describe('Strong revision; the same value is returned quoted in the ETag header and sent back in If-Match.');

/** Domain validator of compare-and-set resources. */
export const Version = z.string().min(1).max(128).describe('Opaque compare-and-set validator of this resource.');
export const ExpectedVersion = z.string().min(1).max(128).describe('The `version` from the last read. The write fails with 409 `version_conflict` when the stored version differs.');

export const baseFields = {
  id: ResourceId,
  createdAt: Timestamp,
  updatedAt: Timestamp,
};
export const archivableFields = {
  ...baseFields,
  archivedAt: Timestamp.nullable().describe('Set while the resource is archived; archive never deletes.'),
};

// ---------------------------------------------------------------- pagination

export const CURSOR_PAGE_DEFAULT_LIMIT = 50;
export const CURSOR_PAGE_MAX_LIMIT = 200;

export const paginationQuery = {
  cursor: z.string().min(1).max(1024).optional().describe('Opaque continuation cursor from `meta.nextCursor` / `links.next` of the previous page.'),
  limit: decimalInteger(1, CURSOR_PAGE_MAX_LIMIT).optional().describe(`Page size, 1-${CURSOR_PAGE_MAX_LIMIT} in decimal digits only; default ${CURSOR_PAGE_DEFAULT_LIMIT}.`),
};

export const ListMeta = z
  .object({
    limit: z.number().int().min(1).max(CURSOR_PAGE_MAX_LIMIT),
    nextCursor: z.string().nullable().describe('Persist it; null on the last page.'),
  })
  .meta({ id: 'ListMeta', description: 'Cursor pagination state of a list response.' });

export const ListLinks = z
  .object({
    next: z.string().nullable().describe('Relative URL of the next page; null on the last page.'),
  })
  .meta({ id: 'ListLinks', description: 'Navigation links of a list response.' });

/** Runtime envelope schemas for apps and the SDK. */
export function singleEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: ListMeta, links: ListLinks });
}

// --------------------------------------------------------------------- errors

export const ErrorObject = z
  .object({
    code: z.string().describe('Machine code, e.g. insufficient_scope, precondition_failed, rate_limit_exceeded.'),
    detail: z.string(),
    status: z
      .string()
      .regex(/^[1-5]\d\d$/)
      .describe('The HTTP status as a string.'),
    title: z.string(),
    source: z
      .union([
        z.object({ pointer: z.string().describe('JSON pointer into the request body, e.g. /name.') }),
        z.object({ parameter: z.string().describe('Name of the offending path or query parameter, e.g. limit.') }),
      ])
      .optional(),
  })
  .meta({ id: 'Error', description: 'One error of a v1 error document.' });

export const ErrorDocument = z
  .object({
    errors: z.array(ErrorObject).min(1),
    meta: z.object({ requestId: z.string().describe('Equals the X-Request-Id response header.') }),
  })
  .meta({ id: 'ErrorDocument', description: 'v1 error document (contract 7.2).' });

// -------------------------------------------------------------------- headers

export const IF_MATCH_HEADER = 'if-match';
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

export const IfMatch = z
  .string()
  .max(130)
  .regex(/^"[^"\s]{1,128}"$/)
  .describe('Strong revision (quoted ETag of the last read). Weak validators and `*` are rejected with 400 invalid_precondition.');

export const IdempotencyKey = z
  .string()
  .max(255)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{7,254}$/)
  .describe(
    '8-255 characters [A-Za-z0-9._:-] (a UUID is recommended). Scoped to the credential and operation, kept 24 hours. ' +
      'A replay with the same payload returns the stored response; a different payload yields 409 idempotency_key_reused; ' +
      'an invalid key yields 400 invalid_idempotency_key.',
  );

// ----------------------------------------------------------------- async jobs

export const AsyncOperation = z
  .object({
    id: ResourceId,
    kind: z.string().describe('What was requested, e.g. project.archive, export, task-recurrence.recheck.'),
    status: z.enum(['pending', 'running', 'succeeded', 'failed', 'canceled']),
    resourceType: z.string(),
    resourceId: ResourceId.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    completedAt: Timestamp.nullable(),
    error: ErrorObject.nullable(),
  })
  .meta({ id: 'AsyncOperation', description: 'An accepted asynchronous operation; poll its `Location`.' });

export const TargetType = z.enum(['contacts', 'projects', 'tasks']).describe('Resource family of the target.');

const hasAttribute = (value: object, ignore: readonly string[] = []) => Object.keys(value).some((key) => !ignore.includes(key));

/**
 * Build a PATCH body: strict partial of the create body, at least one attribute. Typed by the body's own shape,
 * so the domain procedures that take their fields from it (`...TagUpdate.shape`) see each field.
 */
export function patchOf<S extends z.core.$ZodShape, C extends z.core.$ZodObjectConfig>(create: z.ZodObject<S, C>, id: string, description: string) {
  return create
    .partial()
    .refine((v) => hasAttribute(v), 'Send at least one attribute.')
    .meta({ id, description, minProperties: 1 });
}

/** Build a compare-and-set PATCH body: strict partial plus the required `expectedVersion`. */
export function casPatchOf<S extends z.core.$ZodShape, C extends z.core.$ZodObjectConfig>(create: z.ZodObject<S, C>, id: string, description: string) {
  return create
    .partial()
    .extend({ expectedVersion: ExpectedVersion })
    .refine((v) => hasAttribute(v, ['expectedVersion']), 'Send at least one attribute besides expectedVersion.')
    .meta({ id, description, minProperties: 2 });
}
