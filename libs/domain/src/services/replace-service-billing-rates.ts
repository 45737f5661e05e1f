import { z } from 'zod';
import { findService, listServiceBillingRates, lockExistingMemberIds, replaceServiceBillingRatesIfRevision } from '@workcell/db';
import { ServiceBillingRatesReplace } from '@workcell/registry';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { findServiceOr404, serviceIdOf, type ServiceBillingRatesView, versionedBillingRates } from './view.js';

export const replaceServiceBillingRatesInput = z.object({ id: z.string().max(64), ...ServiceBillingRatesReplace.shape }).strict();

/**
 * `PUT /v1/services/{id}/billing-rates`: replaces the whole rate set atomically, compare-and-set on the service's
 * version (409 version_conflict when stale; of concurrent replacements on one version exactly one wins). Each
 * `memberId` names a member of the workspace (null: everyone else), at most one rate per member and `validFrom`
 * (400 with a pointer, nothing written). Writes `service.billing_rates_replaced` in the same transaction.
 */
export const replaceServiceBillingRates = defineProcedure('replaceServiceBillingRates', replaceServiceBillingRatesInput, async (op, input): Promise<Versioned<ServiceBillingRatesView>> => {
  requireGrant(op.auth, 'service', input.id, 'write', 'service');
  const { auth, requestId } = op;
  const workspaceId = auth.workspaceId;
  const id = serviceIdOf(input.id);
  const now = op.now();
  return op.transaction(async (tx) => {
    await findServiceOr404(tx, workspaceId, id);
    const memberIds = [...new Set(input.rates.flatMap((r) => (r.memberId !== null && isUuid(r.memberId) ? [r.memberId.toLowerCase()] : [])))];
    const members = await lockExistingMemberIds(tx, workspaceId, memberIds);
    const issues: FieldIssue[] = [];
    const seen = new Set<string>();
    input.rates.forEach((r, i) => {
      const memberId = r.memberId?.toLowerCase() ?? null;
      if (memberId !== null && !members.has(memberId)) issues.push({ pointer: `/rates/${i}/memberId`, message: 'no such member in this workspace' });
      const key = `${memberId ?? '*'}@${r.validFrom}`;
      if (seen.has(key)) issues.push({ pointer: `/rates/${i}`, message: 'another rate has the same memberId and validFrom' });
      seen.add(key);
    });
    if (issues.length > 0) throw new DomainError('validation_failed', 'the billing rates are not valid', issues);
    const rows = input.rates.map((r) => ({ memberId: r.memberId?.toLowerCase() ?? null, validFrom: new Date(`${r.validFrom}T00:00:00Z`), rate: r.rate.amount, currency: r.rate.currency }));
    const outcome = await replaceServiceBillingRatesIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), rows);
    if (outcome !== 'updated') throw casFailure(outcome, 'service');
    const result = versionedBillingRates((await findService(tx, workspaceId, id))!, await listServiceBillingRates(tx, workspaceId, id));
    await op.emit(tx, {
      aggregateType: 'service',
      aggregateId: id,
      eventType: 'service.billing_rates_replaced',
      payload: { billingRates: { ...result.resource }, requestId },
      occurredAt: now,
    });
    return result;
  });
});
