import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

/** There is no v0 DELETE on contacts. */
export const v0ContactOperations = [
  v0op('GET', '/contacts', 'supported', 'equivalent', 'listContacts'),
  v0op('POST', '/contacts', 'supported', 'equivalent', 'createContact'),
  v0op('PUT', '/contacts', 'deprecated-alias', 'adaptation-required', 'updateContact'),
  v0op('GET', '/contacts/{_id}', 'supported', 'equivalent', 'getContact'),
  v0op('PUT', '/contacts/{_id}', 'supported', 'adaptation-required', 'updateContact'),
] satisfies readonly V0OperationDefinition[];
