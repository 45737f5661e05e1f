import { z } from 'zod';
import { CurrencyCode, casPatchOf, Name, Timestamp, TimeZone, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('workspace-settings');

/** The six-field safe settings projection (5.3). */
const settingsFields = z.strictObject({
  name: Name,
  locale: z
    .string()
    .max(5)
    .regex(/^[a-z]{2}(-[A-Z]{2})?$/),
  timeZone: TimeZone,
  weekStart: z.enum(['monday', 'sunday']),
  defaultCurrency: CurrencyCode,
  dateFormat: z.enum(['YYYY-MM-DD', 'DD.MM.YYYY', 'DD/MM/YYYY', 'MM/DD/YYYY']),
});

export const WorkspaceSettings = z
  .object({ ...settingsFields.shape, version: Version, updatedAt: Timestamp })
  .meta({ id: 'WorkspaceSettings', description: 'Six-field safe projection of the workspace settings.' });

export const WorkspaceSettingsUpdate = casPatchOf(settingsFields, 'WorkspaceSettingsUpdate', 'Compare-and-set of the safe settings projection.');

export const workspaceSettingsOperations = [
  f.get('getWorkspaceSettings', '/v1/workspace/settings', {
    scopes: ['workspace-settings:read'],
    data: WorkspaceSettings,
  }),
  f.update('updateWorkspaceSettings', '/v1/workspace/settings', {
    summary: 'Compare-and-set the workspace settings',
    scopes: ['workspace-settings:write'],
    concurrency: 'cas',
    body: WorkspaceSettingsUpdate,
    data: WorkspaceSettings,
  }),
] satisfies readonly OperationDefinition[];
