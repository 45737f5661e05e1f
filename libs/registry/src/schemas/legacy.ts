import { z } from 'zod';
import { decimalInteger } from './common.js';

/** v0 payloads are "declared broad only" (contract 4.1). */
export const LegacyWritePayload = z.looseObject({}).meta({ id: 'LegacyWritePayload', description: 'Broad legacy write payload (any JSON object; fields are not shown by the frozen contract).' });

export const LegacyResponse = z.union([z.looseObject({}), z.array(z.unknown())]).meta({ id: 'LegacyResponse', description: 'Broad legacy response shape (a JSON object or array).' });

/** Legacy error shape (field names are not shown by the contract; this is the documented design). */
export const LegacyError = z
  .object({
    error: z.object({
      code: z.string().describe('e.g. unauthorized, team_locked, forbidden, not_found, rate_limited, invalid_request'),
      message: z.string(),
    }),
  })
  .meta({ id: 'LegacyError', description: 'Legacy error shape used for 400, 401, 403, 404 and 429.' });

export const LegacyId = z.string().min(1).max(64).describe('Legacy resource identifier `_id`.');
export const CalendarToken = z.string().min(1).max(256).describe('Calendar feed token.');

export const legacyPageQuery = {
  page: decimalInteger(1, Number.MAX_SAFE_INTEGER).optional().describe('Page number, minimum 1 (decimal digits only).'),
  limit: decimalInteger(1, 500).optional().describe('Page size, 1-500 (decimal digits only).'),
};
