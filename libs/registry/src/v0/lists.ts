import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0ListOperations = [
  v0op('DELETE', '/lists', 'deprecated-alias', 'adaptation-required', 'archiveList'),
  v0op('GET', '/lists', 'supported', 'equivalent', 'listLists'),
  v0op('POST', '/lists', 'supported', 'equivalent', 'createList'),
  v0op('PUT', '/lists', 'deprecated-alias', 'adaptation-required', 'updateList'),
  v0op('DELETE', '/lists/{_id}', 'supported', 'adaptation-required', 'archiveList'),
  v0op('GET', '/lists/{_id}', 'supported', 'equivalent', 'getList'),
  v0op('PUT', '/lists/{_id}', 'supported', 'adaptation-required', 'updateList'),
] satisfies readonly V0OperationDefinition[];
