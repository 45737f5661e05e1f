import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0ProductOperations = [
  v0op('DELETE', '/products', 'deprecated-alias', 'adaptation-required', 'archiveProduct'),
  v0op('GET', '/products', 'supported', 'equivalent', 'listProducts'),
  v0op('POST', '/products', 'supported', 'equivalent', 'createProduct'),
  v0op('PUT', '/products', 'deprecated-alias', 'adaptation-required', 'updateProduct'),
  v0op('DELETE', '/products/{_id}', 'supported', 'adaptation-required', 'archiveProduct'),
  v0op('GET', '/products/{_id}', 'supported', 'equivalent', 'getProduct'),
  v0op('PUT', '/products/{_id}', 'supported', 'adaptation-required', 'updateProduct'),
] satisfies readonly V0OperationDefinition[];
