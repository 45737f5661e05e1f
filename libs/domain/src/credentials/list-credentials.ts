import { z } from 'zod';
import { listCredentialPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { type CredentialView, credentialView, pageInput, requireMember } from './access.js';

export const listCredentialsInput = z.object({ status: z.enum(['active', 'expired', 'revoked']).optional(), ...pageInput }).strict();

/** `GET /v1/credentials`: the acting member's own personal access tokens (metadata only), oldest first. */
export const listCredentials = defineProcedure(
  'listCredentials',
  listCredentialsInput,
  async (op, { status, cursor, limit }): Promise<{ items: CredentialView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const memberId = requireMember(auth, 'listing personal access tokens');
    const now = op.now();
    const scope = { workspaceId: auth.workspaceId, list: 'listCredentials', filter: { memberId, status: status ?? null } };
    const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) =>
      listCredentialPage(op.database, { workspaceId: auth.workspaceId, owner: { memberId }, status, now, afterId, take }),
    );
    return { items: page.items.map((row) => credentialView(row, now)), limit, nextCursor: page.nextCursor };
  },
);
