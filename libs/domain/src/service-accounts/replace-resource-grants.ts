import { z } from 'zod';
import { type GrantRow, replaceResourceGrants } from '@workcell/db';
import { ResourceGrantsReplace } from '@workcell/registry';
import { isResourceId, MANAGE_SERVICE_ACCOUNTS, notFound, requirePermission } from '../credentials/access.js';
import { actorOf } from '../identity/actor.js';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { GRANT_DOMAINS } from '../kernel/grants.js';
import { grantsView, type ResourceGrantsView } from './resource-grant-types.js';

export const replaceServiceAccountResourceGrantsInput = z.object({ id: z.string().max(64), ...ResourceGrantsReplace.shape }).strict();

/**
 * `PUT /v1/service-accounts/{id}/resource-grants` (compare-and-set): replaces the whole set atomically, all or
 * nothing, for a member holding settings.api.serviceAccounts.manage.
 *
 * Validated before anything is written, each problem with its JSON pointer (400 validation_failed): a `users`
 * grant (not a grantable resource), two grants for the same resource, and resource ids that do not name a
 * resource of that type in this workspace (another workspace's ids are as unknown as missing ones). 400 rather
 * than 404: the addressed resource, the service account, exists; what is wrong is the body. A missing or
 * deleted service account is 404. Then `expectedVersion` is compared with the account's revision in the same
 * UPDATE that bumps it: a stale one is 409 version_conflict and changes nothing; of concurrent replacements
 * based on the same version exactly one wins.
 */
export const replaceServiceAccountResourceGrants = defineProcedure('replaceServiceAccountResourceGrants', replaceServiceAccountResourceGrantsInput, async (op, input): Promise<ResourceGrantsView> => {
  const { auth } = op;
  await requirePermission(op, auth, MANAGE_SERVICE_ACCOUNTS, 'replacing the resource grants of a service account');
  if (!isResourceId(input.id)) throw notFound('service account');

  const issues: FieldIssue[] = [];
  const grants: GrantRow[] = [];
  const seen = new Map<string, number>();
  for (const [index, grant] of input.grants.entries()) {
    const type = GRANT_DOMAINS[grant.resourceType];
    if (type === null) {
      issues.push({ pointer: `/grants/${index}/resourceType`, message: `${grant.resourceType} cannot be granted to a service account` });
      continue;
    }
    const key = `${type}:${grant.resourceId?.toLowerCase() ?? '*'}`;
    const first = seen.get(key);
    if (first !== undefined) {
      issues.push({ pointer: `/grants/${index}`, message: `duplicates /grants/${first}: one grant per resource` });
      continue;
    }
    seen.set(key, index);
    grants.push({ resourceType: type, resourceId: grant.resourceId, access: grant.access });
  }
  if (issues.length > 0) throw new DomainError('validation_failed', 'the resource grants are not valid', issues);

  const result = await replaceResourceGrants(op.database, {
    workspaceId: auth.workspaceId,
    serviceAccountId: input.id,
    expectedRevision: /^[1-9]\d{0,8}$/.test(input.expectedVersion) ? Number(input.expectedVersion) : null,
    grants,
    actor: actorOf(auth, op.requestId),
    now: op.now(),
  });
  switch (result.kind) {
    case 'not_found':
      throw notFound('service account');
    case 'unknown_resources':
      throw new DomainError(
        'validation_failed',
        'some granted resources do not exist in this workspace',
        result.indexes.map((i) => ({ pointer: `/grants/${i}/resourceId`, message: `no ${input.grants[i]?.resourceType ?? ''} resource with this id in this workspace` })),
      );
    case 'version_conflict':
      throw new DomainError('version_conflict', `expectedVersion ${input.expectedVersion} is stale: the resource grants changed since; read them again`);
    case 'replaced':
      return grantsView(input.id.toLowerCase(), result.revision, result.grants);
  }
});
