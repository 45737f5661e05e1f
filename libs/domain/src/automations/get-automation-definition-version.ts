import { z } from 'zod';
import { findAutomationVersion } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput } from '../kernel/inputs.js';
import { automationDefinitionNotFound, automationIdOf, automationVersionView, type AutomationVersionView, findAutomationDefinitionOr404 } from './view.js';

export const getAutomationDefinitionVersionInput = z.object({ auth: authInput, id: z.string().max(64), versionNumber: z.coerce.number().int().min(1).max(1_000_000) }).strict();

/** `GET /v1/automation-definitions/{id}/versions/{versionNumber}`: one published version (404 for a number not published). */
export const getAutomationDefinitionVersion = defineProcedure(
  'getAutomationDefinitionVersion',
  getAutomationDefinitionVersionInput,
  async (ctx, { auth, id: rawId, versionNumber }): Promise<AutomationVersionView> => {
    const id = automationIdOf(rawId, automationDefinitionNotFound);
    await findAutomationDefinitionOr404(ctx.database, auth, id);
    const version = await findAutomationVersion(ctx.database, auth.workspaceId, id, versionNumber);
    if (version === null) throw new DomainError('not_found', 'automation version not found');
    return automationVersionView(version);
  },
);
