import { z } from 'zod';
import { V1_MAX_PAGE_SIZE } from './limits.js';

/** Input of every list: the opaque cursor and the page size. */
export const pageInput = {
  cursor: z.string().min(1).max(1024).optional(),
  limit: z.number().int().min(1).max(V1_MAX_PAGE_SIZE).default(50),
};
