import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

/** Writes and deletes marked `unavailable` exist only in v1 (migration rule 10). */
export const v0ProjectTemplateOperations = [
  v0op('DELETE', '/projectTemplates', 'unavailable', 'adaptation-required', 'archiveProjectTemplate'),
  v0op('GET', '/projectTemplates', 'supported', 'equivalent', 'listProjectTemplates'),
  v0op('POST', '/projectTemplates', 'unavailable', 'equivalent', 'createProjectTemplate'),
  v0op('PUT', '/projectTemplates', 'unavailable', 'adaptation-required', 'updateProjectTemplate'),
  v0op('DELETE', '/projectTemplates/{_id}', 'unavailable', 'adaptation-required', 'archiveProjectTemplate'),
  v0op('GET', '/projectTemplates/{_id}', 'supported', 'equivalent', 'getProjectTemplate'),
  v0op('PUT', '/projectTemplates/{_id}', 'unavailable', 'adaptation-required', 'updateProjectTemplate'),
] satisfies readonly V0OperationDefinition[];
