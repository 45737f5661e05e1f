import { z } from 'zod';
import { loadResourceGrants } from '@workcell/db';
import { isResourceId, notFound } from '../credentials/access.js';
import { defineProcedure } from '../kernel/procedure.js';
import { grantsView, type ResourceGrantsView } from './resource-grant-types.js';

export const getServiceAccountResourceGrantsInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/service-accounts/{id}/resource-grants`: the whole set and its compare-and-set `version` (the account's revision). */
export const getServiceAccountResourceGrants = defineProcedure('getServiceAccountResourceGrants', getServiceAccountResourceGrantsInput, async (op, { id }): Promise<ResourceGrantsView> => {
  const { auth } = op;
  const loaded = isResourceId(id) ? await loadResourceGrants(op.database, auth.workspaceId, id) : null;
  if (!loaded) throw notFound('service account');
  return grantsView(id.toLowerCase(), loaded.revision, loaded.grants);
});
