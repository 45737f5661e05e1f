import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

/** Journal entries are renamed project statements in v1. */
export const v0JournalEntryOperations = [
  v0op('DELETE', '/journalEntries', 'unavailable', 'adaptation-required', 'archiveProjectStatement'),
  v0op('GET', '/journalEntries', 'supported', 'adaptation-required', 'listProjectStatements'),
  v0op('POST', '/journalEntries', 'unavailable', 'adaptation-required', 'createProjectStatement'),
  v0op('PUT', '/journalEntries', 'unavailable', 'adaptation-required', 'updateProjectStatement'),
  v0op('DELETE', '/journalEntries/{_id}', 'unavailable', 'adaptation-required', 'archiveProjectStatement'),
  v0op('GET', '/journalEntries/{_id}', 'supported', 'adaptation-required', 'getProjectStatement'),
  v0op('PUT', '/journalEntries/{_id}', 'unavailable', 'adaptation-required', 'updateProjectStatement'),
] satisfies readonly V0OperationDefinition[];
