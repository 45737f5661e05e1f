import { z } from 'zod';
import { workspaceUsage } from '@workcell/db';
import { IDEMPOTENCY_RETENTION_HOURS, V0_MAX_PAGE_SIZE, V0_REQUESTS_PER_MINUTE, V1_MAX_PAGE_SIZE } from '../kernel/limits.js';
import { defineProcedure } from '../kernel/procedure.js';

export const getWorkspaceEntitlementsInput = z.object({}).strict();

export interface WorkspaceEntitlementsView {
  readonly plan: string;
  readonly entitlements: readonly { key: string; limit: number | null; used: number | null }[];
}

/** Every workspace of this deployment is on the one plan; its limits are this deployment's configuration. */
export const PLAN = 'standard';

/**
 * `GET /v1/workspace/entitlements` (workspace:read): the plan and each entitlement with its limit (null: not
 * limited) and current use (null: not a counted quantity, e.g. a per-minute rate). Limits are read from the
 * same configuration that enforces them, so the document cannot disagree with the behaviour.
 */
export const getWorkspaceEntitlements = defineProcedure('getWorkspaceEntitlements', getWorkspaceEntitlementsInput, async (op): Promise<WorkspaceEntitlementsView> => {
  const { auth } = op;
  const usage = await workspaceUsage(op.database, auth.workspaceId);
  return {
    plan: PLAN,
    entitlements: [
      { key: 'members', limit: null, used: usage.activeMembers },
      { key: 'serviceAccounts', limit: null, used: usage.activeServiceAccounts },
      { key: 'credentials', limit: null, used: usage.activeCredentials },
      { key: 'projects', limit: null, used: usage.projects },
      { key: 'apiV1.readRequestsPerMinute', limit: op.config.v1RateLimits.read, used: null },
      { key: 'apiV1.writeRequestsPerMinute', limit: op.config.v1RateLimits.write, used: null },
      { key: 'apiV1.maxPageSize', limit: V1_MAX_PAGE_SIZE, used: null },
      { key: 'apiV1.idempotencyKeyRetentionHours', limit: IDEMPOTENCY_RETENTION_HOURS, used: null },
      { key: 'apiV0.requestsPerMinutePerPath', limit: V0_REQUESTS_PER_MINUTE, used: null },
      { key: 'apiV0.maxPageSize', limit: V0_MAX_PAGE_SIZE, used: null },
    ],
  };
});
