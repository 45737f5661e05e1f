import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0ProjectOperations = [
  v0op('GET', '/projects', 'supported', 'equivalent', 'listProjects'),
  v0op('POST', '/projects', 'supported', 'equivalent', 'createProject'),
  v0op('PUT', '/projects', 'deprecated-alias', 'adaptation-required', 'updateProject'),
  v0op('GET', '/projects/{_id}', 'supported', 'equivalent', 'getProject'),
  v0op('PUT', '/projects/{_id}', 'supported', 'adaptation-required', 'updateProject'),
] satisfies readonly V0OperationDefinition[];
