import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0UserOperations = [v0op('GET', '/users', 'supported', 'equivalent', 'listUsers')] satisfies readonly V0OperationDefinition[];
