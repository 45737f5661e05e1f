import { z } from 'zod';
import { listCustomFieldDefinitionsPage } from '@workcell/db';
import { authInput, pageInput } from '../kernel/inputs.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { TARGETS, targetTypeInput } from '../kernel/targets.js';
import { customFieldDefinitionView, type CustomFieldDefinitionView } from './view.js';

export const listCustomFieldDefinitionsInput = z.object({ auth: authInput, ...pageInput, targetType: targetTypeInput.optional() }).strict();

/** `GET /v1/custom-field-definitions`: the workspace's unarchived definitions, oldest first, optionally only those applying to one target type. */
export const listCustomFieldDefinitions = defineProcedure(
  'listCustomFieldDefinitions',
  listCustomFieldDefinitionsInput,
  async (ctx, { auth, cursor, limit, targetType }): Promise<{ items: CustomFieldDefinitionView[]; limit: number; nextCursor: string | null }> => {
    const targetKind = targetType === undefined ? undefined : TARGETS[targetType].kind;
    const scope = { workspaceId: auth.workspaceId, list: 'listCustomFieldDefinitions', filter: { targetType: targetKind ?? null } };
    const page = await paginate(ctx.config, scope, { cursor, limit }, (afterId, take) => listCustomFieldDefinitionsPage(ctx.database, auth.workspaceId, { targetKind }, afterId, take));
    return { items: page.items.map(customFieldDefinitionView), limit, nextCursor: page.nextCursor };
  },
);
