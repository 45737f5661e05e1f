import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0ProductGroupOperations = [
  v0op('DELETE', '/productgroups', 'deprecated-alias', 'adaptation-required', 'archiveProductGroup'),
  v0op('GET', '/productgroups', 'supported', 'equivalent', 'listProductGroups'),
  v0op('POST', '/productgroups', 'supported', 'equivalent', 'createProductGroup'),
  v0op('PUT', '/productgroups', 'deprecated-alias', 'adaptation-required', 'updateProductGroup'),
  v0op('DELETE', '/productgroups/{_id}', 'supported', 'adaptation-required', 'archiveProductGroup'),
  v0op('GET', '/productgroups/{_id}', 'supported', 'equivalent', 'getProductGroup'),
  v0op('PUT', '/productgroups/{_id}', 'supported', 'adaptation-required', 'updateProductGroup'),
] satisfies readonly V0OperationDefinition[];
