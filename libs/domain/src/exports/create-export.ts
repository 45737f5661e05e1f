import { z } from 'zod';
import { insertExport } from '@workcell/db';
import { DOMAIN_READ_SCOPES, ExportCreate, type ResourceDomain } from '@workcell/registry';

import { defineProcedure } from '../kernel/procedure.js';
import { assertScopes } from '../kernel/scopes.js';
import { exportEventView, exportOperationView, type ExportOperationView } from './view.js';

export const createExportInput = z.object({ ...ExportCreate.shape }).strict();

/**
 * `POST /v1/exports`: a queued export (202; the API enqueues its job after the commit). Needs the read scope of every
 * requested resource type (403 naming the missing ones, nothing written). The caller's authorization as of now
 * (effective scopes, principal, resource grants) is stored with it: the job reads with exactly that, so the export
 * never holds what its creator could not read when asking. Writes `export.created` in the same transaction, which
 * also completes a held idempotency key.
 */
export const createExport = defineProcedure('createExport', createExportInput, async (op, { resourceTypes, format, updatedSince }): Promise<ExportOperationView> => {
  const { auth, requestId } = op;
  const types = [...new Set(resourceTypes)];
  assertScopes(
    auth.effectiveScopes,
    types.map((t) => DOMAIN_READ_SCOPES[t as ResourceDomain]),
  );
  const now = op.now();
  const authSnapshot = {
    workspaceId: auth.workspaceId,
    credential: auth.credential,
    principal: auth.principal,
    effectiveScopes: auth.effectiveScopes,
    grants: auth.grants ?? null,
    hiddenProjectIds: auth.hiddenProjectIds ?? null,
  };
  return op.transaction(async (tx) => {
    const row = await insertExport(
      tx,
      auth.workspaceId,
      { resourceTypes: types, format, updatedSince: updatedSince === undefined ? null : new Date(updatedSince), authSnapshot, requestedByCredentialId: auth.credential.id },
      now,
    );
    const result = exportOperationView(row);
    await op.emit(tx, {
      aggregateType: 'export',
      aggregateId: row.id,
      eventType: 'export.created',
      payload: { ...exportEventView(row), requestId },
      occurredAt: now,
      result,
    });
    return result;
  });
});
