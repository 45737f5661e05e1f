import { z } from 'zod';
import { findAutomationVersion } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { automationDefinitionNotFound, automationIdOf, automationVersionView, type AutomationVersionView, findAutomationDefinitionOr404 } from './view.js';

export const getAutomationDefinitionVersionInput = z.object({ id: z.string().max(64), versionNumber: z.coerce.number().int().min(1).max(1_000_000) }).strict();

/** `GET /v1/automation-definitions/{id}/versions/{versionNumber}`: one published version (404 for a number not published). */
export const getAutomationDefinitionVersion = defineProcedure(
  'getAutomationDefinitionVersion',
  getAutomationDefinitionVersionInput,
  async (op, { id: rawId, versionNumber }): Promise<AutomationVersionView> => {
    const { auth } = op;
    const id = automationIdOf(rawId, automationDefinitionNotFound);
    await findAutomationDefinitionOr404(op.database, auth, id);
    const version = await findAutomationVersion(op.database, auth.workspaceId, id, versionNumber);
    if (version === null) throw new DomainError('not_found', 'automation version not found');
    return automationVersionView(version);
  },
);
