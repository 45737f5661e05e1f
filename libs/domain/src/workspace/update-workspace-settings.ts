import { z } from 'zod';
import { loadWorkspaceSettings, recordAudit, updateWorkspaceSettingsIfRevision } from '@workcell/db';
import { WorkspaceSettingsUpdate } from '@workcell/registry';
import { actorOf } from '../identity/actor.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { versionedSettings, type WorkspaceSettingsView } from './settings-view.js';

export const updateWorkspaceSettingsInput = z.object({ ...WorkspaceSettingsUpdate.shape }).strict();

/**
 * `PATCH /v1/workspace/settings` (workspace-settings:write, compare-and-set): the sent fields of the safe
 * projection; a stale `expectedVersion` is 409 `version_conflict` and changes nothing. The settings are
 * sensitive: the change is audited (`workspace.settings_updated`, previous and new values) and written to the
 * outbox in the same transaction.
 */
export const updateWorkspaceSettings = defineProcedure('updateWorkspaceSettings', updateWorkspaceSettingsInput, async (op, input): Promise<Versioned<WorkspaceSettingsView>> => {
  const { auth, requestId } = op;
  const workspaceId = auth.workspaceId;
  const now = op.now();
  const change = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.locale === undefined ? {} : { locale: input.locale }),
    ...(input.timeZone === undefined ? {} : { timezone: input.timeZone }),
    ...(input.weekStart === undefined ? {} : { weekStartDay: input.weekStart === 'sunday' ? 0 : 1 }),
    ...(input.defaultCurrency === undefined ? {} : { currency: input.defaultCurrency }),
    ...(input.dateFormat === undefined ? {} : { dateFormat: input.dateFormat }),
  };
  return op.transaction(async (tx) => {
    const before = await loadWorkspaceSettings(tx, workspaceId);
    const outcome = await updateWorkspaceSettingsIfRevision(tx, workspaceId, expectedRevision(input.expectedVersion), change);
    if (outcome !== 'updated') throw casFailure(outcome, 'workspace settings');
    const result = versionedSettings((await loadWorkspaceSettings(tx, workspaceId))!);
    const changed = Object.keys(WorkspaceSettingsUpdate.shape).filter((key) => key !== 'expectedVersion' && input[key as keyof typeof input] !== undefined);
    const previous = before ? versionedSettings(before).resource : null;
    await recordAudit(tx, {
      workspaceId,
      actor: actorOf(auth, requestId),
      action: 'workspace.settings_updated',
      targetType: 'workspace',
      targetId: workspaceId,
      metadata: { changed, previous, settings: result.resource },
      occurredAt: now,
    });
    await op.emit(tx, {
      aggregateType: 'workspace',
      aggregateId: workspaceId,
      eventType: 'workspace.settings_updated',
      payload: { settings: { ...result.resource }, changed, requestId },
      occurredAt: now,
    });
    return result;
  });
});
