import { z } from 'zod';
import { listCustomFieldDefinitionsPage } from '@workcell/db';
import { pageInput } from '../kernel/inputs.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { TARGETS, targetTypeInput } from '../kernel/targets.js';
import { customFieldDefinitionView, type CustomFieldDefinitionView } from './view.js';

export const listCustomFieldDefinitionsInput = z.object({ ...pageInput, targetType: targetTypeInput.optional() }).strict();

/** `GET /v1/custom-field-definitions`: the workspace's unarchived definitions, oldest first, optionally only those applying to one target type. */
export const listCustomFieldDefinitions = defineProcedure(
  'listCustomFieldDefinitions',
  listCustomFieldDefinitionsInput,
  async (op, { cursor, limit, targetType }): Promise<{ items: CustomFieldDefinitionView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const targetKind = targetType === undefined ? undefined : TARGETS[targetType].kind;
    const scope = { workspaceId: auth.workspaceId, list: 'listCustomFieldDefinitions', filter: { targetType: targetKind ?? null } };
    const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) => listCustomFieldDefinitionsPage(op.database, auth.workspaceId, { targetKind }, afterId, take));
    return { items: page.items.map(customFieldDefinitionView), limit, nextCursor: page.nextCursor };
  },
);
