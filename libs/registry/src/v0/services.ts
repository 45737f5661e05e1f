import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0ServiceOperations = [
  v0op('GET', '/services', 'supported', 'equivalent', 'listServices'),
  v0op('GET', '/services/{_id}', 'supported', 'equivalent', 'getService'),
] satisfies readonly V0OperationDefinition[];
