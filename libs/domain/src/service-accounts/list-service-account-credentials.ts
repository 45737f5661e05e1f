import { z } from 'zod';
import { findServiceAccount, listCredentialPage } from '@workcell/db';
import { isResourceId, notFound, pageInput, type ServiceAccountCredentialView, serviceAccountCredentialView } from '../credentials/access.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';

export const listServiceAccountCredentialsInput = z.object({ id: z.string().max(64), ...pageInput }).strict();

/** `GET /v1/service-accounts/{id}/credentials`: metadata of every credential of the account (revoked ones too), oldest first. */
export const listServiceAccountCredentials = defineProcedure(
  'listServiceAccountCredentials',
  listServiceAccountCredentialsInput,
  async (op, { id, cursor, limit }): Promise<{ items: ServiceAccountCredentialView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const account = isResourceId(id) ? await findServiceAccount(op.database, auth.workspaceId, id) : null;
    if (!account) throw notFound('service account');
    const now = op.now();
    const scope = { workspaceId: auth.workspaceId, list: 'listServiceAccountCredentials', filter: { serviceAccountId: account.id } };
    const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) =>
      listCredentialPage(op.database, { workspaceId: auth.workspaceId, owner: { serviceAccountId: account.id }, now, afterId, take }),
    );
    return { items: page.items.map((row) => serviceAccountCredentialView(row, now)), limit, nextCursor: page.nextCursor };
  },
);
