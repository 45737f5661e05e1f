import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0TaskOperations = [
  v0op('DELETE', '/tasks', 'deprecated-alias', 'adaptation-required', 'archiveTask'),
  v0op('GET', '/tasks', 'supported', 'equivalent', 'listTasks'),
  v0op('POST', '/tasks', 'supported', 'equivalent', 'createTask'),
  v0op('PUT', '/tasks', 'deprecated-alias', 'adaptation-required', 'updateTask'),
  v0op('DELETE', '/tasks/{_id}', 'supported', 'adaptation-required', 'archiveTask'),
  v0op('GET', '/tasks/{_id}', 'supported', 'equivalent', 'getTask'),
  v0op('PUT', '/tasks/{_id}', 'supported', 'adaptation-required', 'updateTask'),
  v0op('POST', '/tasks/{_id}/startTracking', 'supported', 'equivalent', 'startTaskTimer'),
  v0op('POST', '/tasks/{_id}/stopTracking', 'supported', 'equivalent', 'stopTaskTimer'),
] satisfies readonly V0OperationDefinition[];
