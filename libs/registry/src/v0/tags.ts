import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0TagOperations = [
  v0op('GET', '/tags', 'supported', 'equivalent', 'listTags'),
  v0op('GET', '/tags/{_id}', 'supported', 'equivalent', 'getTag'),
] satisfies readonly V0OperationDefinition[];
