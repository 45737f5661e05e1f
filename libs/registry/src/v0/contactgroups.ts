import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0ContactGroupOperations = [
  v0op('DELETE', '/contactgroups', 'unavailable', 'adaptation-required', 'archiveContactGroup'),
  v0op('GET', '/contactgroups', 'supported', 'equivalent', 'listContactGroups'),
  v0op('POST', '/contactgroups', 'unavailable', 'equivalent', 'createContactGroup'),
  v0op('PUT', '/contactgroups', 'unavailable', 'adaptation-required', 'updateContactGroup'),
  v0op('DELETE', '/contactgroups/{_id}', 'unavailable', 'adaptation-required', 'archiveContactGroup'),
  v0op('GET', '/contactgroups/{_id}', 'supported', 'equivalent', 'getContactGroup'),
  v0op('PUT', '/contactgroups/{_id}', 'unavailable', 'adaptation-required', 'updateContactGroup'),
] satisfies readonly V0OperationDefinition[];
