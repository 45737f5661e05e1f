import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

/** The v0 team collection becomes the one v1 workspace resource. */
export const v0TeamOperations = [v0op('GET', '/teams', 'supported', 'adaptation-required', 'getWorkspace')] satisfies readonly V0OperationDefinition[];
