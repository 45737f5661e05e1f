import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0RootOperations = [v0op('GET', '/', 'supported', 'adaptation-required', 'getApiVersion')] satisfies readonly V0OperationDefinition[];
