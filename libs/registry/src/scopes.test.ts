import assert from 'node:assert/strict';
import { loadContract, parseScopes, parseSensitiveScopes } from './contract.js';
import {
  DOMAIN_READ_SCOPES,
  FINANCE_OVERLAY_SCOPES,
  getV1Operation,
  isSensitiveScope,
  SENSITIVE_SCOPES,
  TARGET_READ_SCOPES,
  V1_SCOPES,
  v1Operations,
  type OperationDefinition,
  type V1Scope,
} from './index.js';

const contract = loadContract();
const sorted = (xs: readonly string[]) => [...xs].sort();
const byFamily = (family: string) => v1Operations.filter((op) => op.family === family);
const requiredOrAnyOf = (op: OperationDefinition): V1Scope[] => [...op.scopes, ...op.anyOfScopes];

describe(`v1 scopes (contract source: ${contract.source})`, () => {
  it('V1_SCOPES is exactly the expanded scope list of 5.3, in order, without duplicates', () => {
    assert.deepEqual([...V1_SCOPES], parseScopes(contract.text));
    assert.equal(new Set(V1_SCOPES).size, V1_SCOPES.length);
  });

  it('SENSITIVE_SCOPES are exactly the scopes 5.3 marks sensitive', () => {
    assert.deepEqual(sorted(SENSITIVE_SCOPES), sorted(parseSensitiveScopes(contract.text)));
  });

  it('every 5.3 scope is required or overlaid by at least one operation, and nothing else is used', () => {
    const used = new Set<string>(v1Operations.flatMap((op) => [...op.scopes, ...op.anyOfScopes, ...op.overlayScopes]));
    assert.deepEqual(sorted([...used]), sorted(V1_SCOPES));
  });

  it('no operation repeats a scope across scopes, anyOfScopes and overlayScopes', () => {
    for (const op of v1Operations) {
      const all = [...op.scopes, ...op.anyOfScopes, ...op.overlayScopes];
      assert.equal(new Set(all).size, all.length, op.operationId);
      if (op.authenticated && op.family !== 'auth') assert.ok(op.scopes.length > 0, `${op.operationId} needs a scope`);
    }
  });

  it('sensitive = a required or any-of scope is sensitive', () => {
    for (const op of v1Operations) {
      assert.equal(op.sensitive, requiredOrAnyOf(op).some(isSensitiveScope), op.operationId);
    }
  });
});

describe('scope rules of 5.3 are encoded in the entries', () => {
  it('finance scopes appear only as overlays on product / project-statement operations', () => {
    for (const op of v1Operations) {
      for (const scope of FINANCE_OVERLAY_SCOPES) {
        assert.ok(!requiredOrAnyOf(op).includes(scope), `${op.operationId} requires ${scope}`);
        if (op.overlayScopes.includes(scope)) {
          const family = scope.startsWith('products:') ? 'products' : 'project-statements';
          assert.equal(op.family, family, `${op.operationId} overlays ${scope}`);
          // "only in addition to the matching product / statement scope"
          assert.ok(
            op.scopes.some((s) => s === `${family}:read` || s === `${family}:write`),
            `${op.operationId}: ${scope} only in addition to a ${family} scope`,
          );
          if (scope.endsWith(':write')) assert.ok(op.scopes.includes(`${family}:write` as V1Scope), op.operationId);
        }
      }
    }
    for (const op of [...byFamily('products'), ...byFamily('project-statements')]) {
      if (op.response.kind === 'single' || op.response.kind === 'list') {
        const read = op.family === 'products' ? 'products:finance:read' : 'project-statements:finance:read';
        assert.ok(op.overlayScopes.includes(read), `${op.operationId} reveals purchasePrice only with ${read}`);
      }
      if (op.operationId.startsWith('create') || op.operationId.startsWith('update')) {
        const write = op.family === 'products' ? 'products:finance:write' : 'project-statements:finance:write';
        assert.ok(op.overlayScopes.includes(write), `${op.operationId} permits purchasePrice only with ${write}`);
      }
    }
  });

  it('time-entries:billing is required only by the billing operations and otherwise an overlay on time-entry reads', () => {
    const requiring = v1Operations.filter((op) => op.scopes.includes('time-entries:billing')).map((op) => op.operationId);
    assert.deepEqual(sorted(requiring), ['getTimeEntryBilling', 'setTimeEntryBilling']);
    for (const id of requiring) assert.deepEqual(getV1Operation(id).scopes, ['time-entries:billing']);
    assert.equal(getV1Operation('setTimeEntryBilling').concurrency, 'cas');
    const overlaying = v1Operations.filter((op) => op.overlayScopes.includes('time-entries:billing'));
    assert.deepEqual(sorted(overlaying.map((op) => op.operationId)), ['getTimeEntry', 'listTimeEntries']);
  });

  it('recurrence reads need task-recurrences:read AND tasks:read', () => {
    for (const id of ['listTaskRecurrences', 'getTaskRecurrence', 'listTaskRecurrenceOccurrences']) {
      assert.deepEqual(sorted(getV1Operation(id).scopes), ['task-recurrences:read', 'tasks:read'], id);
    }
  });

  it('recurrence manage / preview / recheck need task-recurrences:write + tasks:read + tasks:write', () => {
    for (const id of ['createTaskRecurrence', 'updateTaskRecurrence', 'archiveTaskRecurrence', 'restoreTaskRecurrence', 'previewTaskRecurrence', 'recheckTaskRecurrence']) {
      assert.deepEqual(sorted(getV1Operation(id).scopes), ['task-recurrences:write', 'tasks:read', 'tasks:write'], id);
    }
  });

  it('external event submission needs task-recurrences:run + tasks:write', () => {
    assert.deepEqual(sorted(getV1Operation('submitTaskRecurrenceEvent').scopes), ['task-recurrences:run', 'tasks:write']);
    const running = v1Operations.filter((op) => op.scopes.includes('task-recurrences:run')).map((op) => op.operationId);
    assert.deepEqual(running, ['submitTaskRecurrenceEvent']);
  });

  it('every recurrence operation also needs a tasks scope', () => {
    for (const op of byFamily('task-recurrences')) {
      assert.ok(
        op.scopes.some((s) => s.startsWith('tasks:')),
        op.operationId,
      );
    }
  });

  it("custom-field values need custom-field-values:* plus the target's read/write scope (per-target operations)", () => {
    const ops = byFamily('custom-field-values');
    assert.equal(ops.length, 6);
    for (const op of ops) {
      const target = /^\/v1\/(projects|tasks|contacts)\/\{id\}\/custom-field-values$/.exec(op.path)?.[1];
      assert.ok(target, op.operationId);
      const mode = op.method === 'GET' ? 'read' : 'write';
      assert.deepEqual(sorted(op.scopes), sorted([`custom-field-values:${mode}`, `${target}:${mode}`]), op.operationId);
    }
    for (const op of v1Operations.filter((o) => o.scopes.some((s) => s.startsWith('custom-field-values:')))) {
      assert.equal(op.family, 'custom-field-values', op.operationId);
    }
  });

  it('activity and comments need their scope plus any of contacts/projects/tasks read, checked per target', () => {
    for (const op of [...byFamily('activity'), ...byFamily('comments')]) {
      assert.deepEqual(sorted(op.anyOfScopes), sorted(TARGET_READ_SCOPES), op.operationId);
      assert.equal(op.dynamicScopes, 'target-resource', op.operationId);
      assert.equal(op.scopes.length, 1, op.operationId);
      assert.match(op.scopes[0] ?? '', /^(activity:read|comments:(read|write))$/, op.operationId);
    }
    assert.deepEqual(
      v1Operations
        .filter((op) => op.anyOfScopes.length > 0)
        .map((op) => op.family)
        .filter((f, i, a) => a.indexOf(f) === i),
      ['activity', 'comments'],
    );
  });

  it('project template instantiation needs project-templates:read AND projects:write', () => {
    assert.deepEqual(sorted(getV1Operation('instantiateProjectTemplate').scopes), ['project-templates:read', 'projects:write']);
  });

  it('project lifecycle and sharing use projects:lifecycle / projects:sharing', () => {
    for (const id of ['completeProject', 'reopenProject', 'archiveProject', 'restoreProject', 'listProjectLifecycleOperations', 'getProjectLifecycleOperation']) {
      assert.deepEqual(getV1Operation(id).scopes, ['projects:lifecycle'], id);
    }
    for (const id of ['completeProject', 'reopenProject', 'archiveProject', 'restoreProject']) {
      assert.equal(getV1Operation(id).async, true, id);
    }
    assert.deepEqual(getV1Operation('getProjectSharing').scopes, ['projects:sharing']);
    const replace = getV1Operation('replaceProjectSharing');
    assert.deepEqual([replace.method, replace.concurrency, replace.sensitive], ['PUT', 'cas', true]);
  });

  it('search:read carries the dynamic requested-domains rule; every domain maps to a read scope', () => {
    const search = v1Operations.filter((op) => op.scopes.includes('search:read'));
    assert.deepEqual(
      search.map((op) => op.operationId),
      ['searchResources'],
    );
    assert.equal(search[0]?.dynamicScopes, 'requested-domains');
    assert.equal(getV1Operation('createExport').dynamicScopes, 'requested-domains');
    for (const scope of Object.values(DOMAIN_READ_SCOPES)) {
      assert.ok((V1_SCOPES as readonly string[]).includes(scope) && scope.endsWith(':read'), scope);
    }
  });

  it('automation writes carry the automation-flow rule; abort needs automations:run', () => {
    for (const id of ['createAutomationDefinition', 'updateAutomationDefinition', 'publishAutomationDefinition']) {
      assert.equal(getV1Operation(id).dynamicScopes, 'automation-flow', id);
    }
    assert.deepEqual(
      v1Operations.filter((op) => op.scopes.includes('automations:run')).map((op) => op.operationId),
      ['abortAutomationRun'],
    );
  });

  it('delegated appointment / absence / availability scopes act on another member', () => {
    const delegated: V1Scope[] = ['appointments:delegated:read', 'appointments:delegated:write', 'absences:delegated:read', 'absences:admin:write', 'availability:delegated:read'];
    for (const op of v1Operations) {
      const usesDelegated = op.scopes.some((s) => delegated.includes(s));
      const memberPath = /^\/v1\/members\/\{id\}\/(appointments|absences|availability)/.test(op.path);
      assert.equal(usesDelegated, memberPath, op.operationId);
      if (usesDelegated) assert.equal(op.sensitive, true, op.operationId);
    }
    for (const scope of delegated)
      assert.ok(
        v1Operations.some((op) => op.scopes.includes(scope)),
        scope,
      );
  });

  it('members:pii:read is only an overlay, on member and invitation reads', () => {
    for (const op of v1Operations) {
      assert.ok(!requiredOrAnyOf(op).includes('members:pii:read'), op.operationId);
      if (op.overlayScopes.includes('members:pii:read')) assert.ok(['members', 'invitations'].includes(op.family));
    }
    for (const id of ['listMembers', 'getMember', 'listInvitations', 'getInvitation']) {
      assert.ok(getV1Operation(id).overlayScopes.includes('members:pii:read'), id);
    }
  });

  it('the workspace, auth context and credential rules of 4.4 / 5.3 hold', () => {
    assert.deepEqual(getV1Operation('getWorkspace').scopes, ['workspace:read']);
    assert.deepEqual(sorted(byFamily('credentials').map((op) => op.operationId)), sorted(['listCredentials', 'createCredential', 'rotateCredential', 'revokeCredential']));
    assert.deepEqual(getV1Operation('updateWorkspaceSettings').concurrency, 'cas');
    assert.deepEqual(getV1Operation('replaceServiceAccountResourceGrants').scopes, ['resource-grants:write']);
  });
});
