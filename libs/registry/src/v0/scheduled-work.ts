import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

export const v0ScheduledWorkOperations = [v0op('GET', '/scheduledWork', 'supported', 'adaptation-required', 'listPlannedWork')] satisfies readonly V0OperationDefinition[];
