import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0CallNoteOperations = [
  v0op('DELETE', '/callnotes', 'deprecated-alias', 'adaptation-required', 'archiveCallNote'),
  v0op('GET', '/callnotes', 'supported', 'equivalent', 'listCallNotes'),
  v0op('POST', '/callnotes', 'supported', 'equivalent', 'createCallNote'),
  v0op('DELETE', '/callnotes/{_id}', 'supported', 'adaptation-required', 'archiveCallNote'),
  v0op('GET', '/callnotes/{_id}', 'supported', 'equivalent', 'getCallNote'),
] satisfies readonly V0OperationDefinition[];
