import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

/** No v1 replacement: stays on v0 until a calendar domain exists in v1. */
export const v0CalendarOperations = [v0op('GET', '/calendar/{token}.ics', 'supported', 'retained-v0', null)] satisfies readonly V0OperationDefinition[];
