import { z } from 'zod';
import { loadResourceGrants } from '@workcell/db';
import { authInput, isResourceId, notFound } from '../credentials/access.js';
import { defineProcedure } from '../kernel/procedure.js';
import { grantsView, type ResourceGrantsView } from './resource-grant-types.js';

export const getServiceAccountResourceGrantsInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/service-accounts/{id}/resource-grants`: the whole set and its compare-and-set `version` (the account's revision). */
export const getServiceAccountResourceGrants = defineProcedure('getServiceAccountResourceGrants', getServiceAccountResourceGrantsInput, async (ctx, { auth, id }): Promise<ResourceGrantsView> => {
  const loaded = isResourceId(id) ? await loadResourceGrants(ctx.database, auth.workspaceId, id) : null;
  if (!loaded) throw notFound('service account');
  return grantsView(id.toLowerCase(), loaded.revision, loaded.grants);
});
