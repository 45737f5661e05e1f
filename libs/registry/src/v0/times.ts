import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0TimeOperations = [
  v0op('DELETE', '/times', 'deprecated-alias', 'adaptation-required', 'archiveTimeEntry'),
  v0op('GET', '/times', 'supported', 'equivalent', 'listTimeEntries'),
  v0op('POST', '/times', 'supported', 'equivalent', 'createTimeEntry'),
  v0op('PUT', '/times', 'deprecated-alias', 'adaptation-required', 'updateTimeEntry'),
  v0op('DELETE', '/times/{_id}', 'supported', 'adaptation-required', 'archiveTimeEntry'),
  v0op('GET', '/times/{_id}', 'supported', 'equivalent', 'getTimeEntry'),
  v0op('PUT', '/times/{_id}', 'supported', 'adaptation-required', 'updateTimeEntry'),
] satisfies readonly V0OperationDefinition[];
