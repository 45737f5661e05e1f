import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  computeRegistryDigest,
  DEFAULT_BODY_LIMIT,
  DOCUMENT_MAX_CONTENT_CHARS,
  findV0Operation,
  findV1Operation,
  findV1OperationByRoute,
  getV1Operation,
  REGISTRY_DIGEST,
  toV0Row,
  toV1Row,
  V0_OPERATION_TABLE,
  V1_FAMILIES,
  V1_OPERATION_IDS,
  V1_OPERATION_TABLE,
  v0Operations,
  v1Operations,
} from './index.js';

/** The 14 strong-revision (If-Match) operations; keep in sync with docs/registry.md. */
const IF_MATCH_OPERATIONS = [
  'updateProject',
  'completeProject',
  'reopenProject',
  'archiveProject',
  'restoreProject',
  'updateProjectTemplate',
  'archiveProjectTemplate',
  'restoreProjectTemplate',
  'updateTask',
  'archiveTask',
  'restoreTask',
  'completeTask',
  'reopenTask',
  'moveTask',
];

/** The 31 compare-and-set operations; keep in sync with docs/registry.md. */
const CAS_OPERATIONS = [
  'updateWorkspaceSettings',
  'replaceProjectSharing',
  'updateTaskRecurrence',
  'updateTimeEntry',
  'setTimeEntryBilling',
  'updateContact',
  'updateContactGroup',
  'updateService',
  'replaceServiceBillingRates',
  'updateCustomFieldDefinition',
  'updateProjectCustomFieldValues',
  'updateTaskCustomFieldValues',
  'updateContactCustomFieldValues',
  'replaceTaskPlannedWork',
  'updateAppointment',
  'updateMemberAppointment',
  'updateAbsence',
  'updateMemberAbsence',
  'updateDocument',
  'updateProduct',
  'updateProductGroup',
  'updateProjectStatement',
  'updateMember',
  'updateRole',
  'replaceRolePermissions',
  'updateGroup',
  'replaceGroupMembers',
  'updateAutomationDefinition',
  'publishAutomationDefinition',
  'replaceServiceAccountResourceGrants',
  'updateWebhook',
];

const sorted = (xs: readonly string[]) => [...xs].sort();

describe('v1 registry: counts and identity', () => {
  it('has exactly 237 operations, 235 credential-authenticated', () => {
    assert.equal(v1Operations.length, 237);
    assert.equal(v1Operations.filter((op) => op.authenticated).length, 235);
  });

  it('has exactly two public operations: getApiVersion (GET /v1) and getOpenApiDocument (GET /v1/openapi.json)', () => {
    const pub = v1Operations.filter((op) => !op.authenticated).map((op) => `${op.operationId} ${op.method} ${op.path}`);
    assert.deepEqual(sorted(pub), ['getApiVersion GET /v1', 'getOpenApiDocument GET /v1/openapi.json']);
    for (const op of v1Operations.filter((o) => !o.authenticated)) {
      assert.deepEqual([op.scopes, op.anyOfScopes, op.overlayScopes], [[], [], []]);
    }
  });

  it('has unique operationIds and unique (method, path) pairs', () => {
    assert.equal(new Set(v1Operations.map((op) => op.operationId)).size, v1Operations.length);
    assert.equal(new Set(v1Operations.map((op) => `${op.method} ${op.path}`)).size, v1Operations.length);
  });

  it('prefixes every path with /v1 and uses {id} for the primary resource', () => {
    for (const op of v1Operations) {
      assert.match(op.path, /^\/v1(\/|$)/, op.operationId);
      assert.doesNotMatch(op.path, /\/$/, op.operationId);
      const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      if (params.length > 0) assert.equal(params[0], 'id', `${op.operationId}: first path parameter must be {id}`);
      assert.equal(new Set(params).size, params.length, op.operationId);
    }
  });

  it('uses only known families and every family has an operation', () => {
    const used = new Set(v1Operations.map((op) => op.family));
    assert.deepEqual(sorted([...used]), sorted(V1_FAMILIES));
  });

  it('has exactly the 14 if-match operations', () => {
    const ifMatch = v1Operations.filter((op) => op.concurrency === 'if-match').map((op) => op.operationId);
    assert.equal(ifMatch.length, 14);
    assert.deepEqual(sorted(ifMatch), sorted(IF_MATCH_OPERATIONS));
    for (const id of ifMatch) {
      assert.ok(['projects', 'tasks', 'project-templates'].includes(getV1Operation(id).family), id);
    }
  });

  it('has exactly the 31 compare-and-set operations', () => {
    const cas = v1Operations.filter((op) => op.concurrency === 'cas').map((op) => op.operationId);
    assert.equal(cas.length, 31);
    assert.deepEqual(sorted(cas), sorted(CAS_OPERATIONS));
  });

  it('lookup helpers find operations', () => {
    assert.equal(getV1Operation('getTask').path, '/v1/tasks/{id}');
    assert.equal(findV1Operation('nope'), undefined);
    assert.throws(() => getV1Operation('nope'), /Unknown v1 operation/);
    assert.equal(findV1OperationByRoute('DELETE', '/v1/call-notes/{id}')?.operationId, 'archiveCallNote');
    assert.equal(findV0Operation('GET', '/teams')?.v1OperationId, 'getWorkspace');
  });
});

describe('v1 registry: derivation rules hold on the built data', () => {
  it('concurrency only on mutations; If-Match header exactly on if-match operations', () => {
    for (const op of v1Operations) {
      if (op.concurrency !== 'none') assert.notEqual(op.method, 'GET', op.operationId);
      const headers = Object.keys(op.request.headers?.shape ?? {});
      assert.equal(headers.includes('if-match'), op.concurrency === 'if-match', op.operationId);
      assert.equal(headers.includes('idempotency-key'), op.idempotent, op.operationId);
      if (op.concurrency === 'if-match') assert.ok(op.errors.includes(412) && op.errors.includes(428), op.operationId);
    }
  });

  it('cas bodies require expectedVersion', () => {
    for (const op of v1Operations.filter((o) => o.concurrency === 'cas')) {
      assert.ok(op.request.body, op.operationId);
      const parsed = op.request.body.safeParse({});
      assert.equal(parsed.success, false, op.operationId);
      const issues = parsed.error?.issues ?? [];
      assert.ok(
        issues.some((i) => i.path[0] === 'expectedVersion'),
        `${op.operationId} must require expectedVersion`,
      );
    }
  });

  it('idempotent = POST without precondition that reveals no secret', () => {
    for (const op of v1Operations) {
      const expected = op.method === 'POST' && op.concurrency === 'none' && op.authenticated && !op.revealsSecret;
      assert.equal(op.idempotent, expected, op.operationId);
    }
    assert.deepEqual(
      sorted(v1Operations.filter((op) => op.revealsSecret).map((op) => op.operationId)),
      sorted([
        'createCredential',
        'rotateCredential',
        'createServiceAccountCredential',
        'rotateServiceAccountCredential',
        'createWebhook',
        // Only with rotateSigningSecret (issue 26): its answer is never stored by a cache either.
        'updateWebhook',
      ]),
    );
  });

  it('retry class follows 7.4: safe GETs, idempotent POSTs, guarded planned-work replacement, never otherwise', () => {
    for (const op of v1Operations) {
      const expected = op.method === 'GET' ? 'safe' : op.idempotent ? 'idempotent' : op.operationId === 'replaceTaskPlannedWork' ? 'guarded' : 'never';
      assert.equal(op.retry, expected, op.operationId);
    }
  });

  it('success statuses and response kinds are coherent', () => {
    for (const op of v1Operations) {
      if (op.async) {
        assert.equal(op.success, 202, op.operationId);
        assert.ok(op.responseHeaders.includes('Location'), op.operationId);
      }
      if (op.success === 204) assert.equal(op.response.kind, 'empty', op.operationId);
      if (op.response.kind === 'empty') assert.equal(op.success, 204, op.operationId);
      if (op.method === 'GET') assert.equal(op.success, 200, op.operationId);
      if (op.response.kind === 'list') {
        assert.equal(op.method, 'GET');
        const query = Object.keys(op.request.query?.shape ?? {});
        assert.ok(query.includes('cursor') && query.includes('limit'), `${op.operationId} paginates with cursor + limit`);
      }
    }
    assert.deepEqual(
      sorted(v1Operations.filter((op) => op.async).map((op) => op.operationId)),
      sorted(['completeProject', 'reopenProject', 'archiveProject', 'restoreProject', 'recheckTaskRecurrence', 'submitTaskRecurrenceEvent', 'createExport', 'abortAutomationRun']),
    );
  });

  it('auth context operations answer with Cache-Control: private, no-store', () => {
    for (const id of ['getAuthContext', 'revokeAuthContext']) {
      const op = getV1Operation(id);
      assert.ok(op.responseHeaders.includes('Cache-Control'), id);
      assert.deepEqual(op.scopes, []);
      assert.equal(op.path, '/v1/auth/context');
    }
  });

  it('only the document writes raise the body limit, enough for content at its bound in UTF-8; every operation with a body declares 413', () => {
    const raised = v1Operations.filter((op) => op.bodyLimit !== null);
    assert.deepEqual(raised.map((op) => op.operationId).sort(), ['createDocument', 'updateDocument']);
    for (const op of raised) {
      assert.ok(op.request.body, op.operationId);
      assert.ok(op.bodyLimit! >= 4 * DOCUMENT_MAX_CONTENT_CHARS && op.bodyLimit! > DEFAULT_BODY_LIMIT, op.operationId);
      assert.ok(op.errors.includes(413), op.operationId);
    }
    // The server's own body limit applies to every operation that takes a body.
    assert.deepEqual(
      v1Operations.filter((op) => op.errors.includes(413)).map((op) => op.operationId),
      v1Operations.filter((op) => op.request.body).map((op) => op.operationId),
    );
  });

  it('every archiveX has restoreX at POST <archive path>/restore, with the same concurrency', () => {
    const archives = v1Operations.filter((op) => op.operationId.startsWith('archive'));
    assert.ok(archives.length >= 15);
    for (const archive of archives) {
      assert.equal(archive.method, 'DELETE', archive.operationId);
      const restore = findV1Operation(archive.operationId.replace(/^archive/, 'restore'));
      assert.ok(restore, `${archive.operationId} has no restore`);
      assert.equal(restore.method, 'POST');
      assert.equal(restore.path, `${archive.path}/restore`);
      assert.equal(restore.concurrency, archive.concurrency, restore.operationId);
      assert.deepEqual(restore.scopes, archive.scopes, restore.operationId);
    }
    for (const restore of v1Operations.filter((op) => op.operationId.startsWith('restore'))) {
      assert.ok(findV1Operation(restore.operationId.replace(/^restore/, 'archive')), restore.operationId);
    }
  });

  it('PATCH bodies are strict and need at least one attribute', () => {
    for (const op of v1Operations.filter((o) => o.method === 'PATCH')) {
      const body = op.request.body;
      assert.ok(body, op.operationId);
      const base = op.concurrency === 'cas' ? { expectedVersion: 'v1' } : {};
      assert.equal(body.safeParse(base).success, false, `${op.operationId} accepts an empty patch`);
      assert.equal(body.safeParse({ ...base, __unknown: 1 }).success, false, `${op.operationId} accepts unknown keys`);
    }
  });

  it('every request body rejects unknown keys', () => {
    for (const op of v1Operations) {
      if (!op.request.body) continue;
      const r = op.request.body.safeParse({ definitelyNotAField: true });
      assert.equal(r.success, false, op.operationId);
    }
  });
});

describe('v0 registry', () => {
  it('has all 87 rows, unique (method, path), two public operations', () => {
    assert.equal(v0Operations.length, 87);
    assert.equal(new Set(v0Operations.map((op) => `${op.method} ${op.path}`)).size, 87);
    assert.equal(new Set(v0Operations.map((op) => op.operationId)).size, 87);
    assert.deepEqual(
      v0Operations.filter((op) => !op.authenticated).map((op) => `${op.method} ${op.path}`),
      ['GET /', 'GET /calendar/{token}.ics'],
    );
  });

  it('maps every v0 operation to at most one existing v1 operation (calendar: none)', () => {
    for (const op of v0Operations) {
      if (op.v1OperationId === null) {
        assert.equal(op.path, '/calendar/{token}.ics');
        assert.equal(op.migrationClass, 'retained-v0');
      } else {
        assert.ok(findV1Operation(op.v1OperationId), `${op.method} ${op.path} -> ${op.v1OperationId}`);
      }
    }
  });

  it('declares parameters as in 4.1/4.2', () => {
    for (const op of v0Operations) {
      assert.deepEqual(op.responses, [200, 201, 204, 400, 401, 429]);
      assert.equal(op.body === 'required', op.method === 'POST' || op.method === 'PUT', `${op.method} ${op.path}`);
      assert.equal(op.pageQuery, op.method === 'GET' && op.path !== '/', `${op.method} ${op.path}`);
      if (op.path.includes('{_id}')) assert.deepEqual(Object.keys(op.request.path?.shape ?? {}), ['_id']);
    }
    const q = findV0Operation('GET', '/callnotes')?.request.query;
    assert.ok(q);
    assert.equal(q.safeParse({ page: '1', limit: '500' }).success, true);
    assert.equal(q.safeParse({ limit: '501' }).success, false);
    assert.equal(q.safeParse({ page: '0' }).success, false);
    assert.equal(findV0Operation('GET', '/calendar/{token}.ics')?.request.path?.safeParse({ token: 'abc' }).success, true);
    assert.equal(findV0Operation('DELETE', '/callnotes')?.bodyAlias, true);
    assert.equal(findV0Operation('DELETE', '/callnotes')?.request.body, null);
  });
});

describe('generated operation table and operations.json', () => {
  it('the generated digest equals the digest of the source registry (regenerate on failure)', () => {
    assert.match(REGISTRY_DIGEST, /^[0-9a-f]{64}$/);
    assert.equal(REGISTRY_DIGEST, computeRegistryDigest(), 'run: npx nx run @workcell/registry-gen:generate');
  });

  it('the generated table equals the source rows', () => {
    assert.deepEqual(V1_OPERATION_TABLE, v1Operations.map(toV1Row));
    assert.deepEqual(V0_OPERATION_TABLE, v0Operations.map(toV0Row));
    assert.deepEqual(
      V1_OPERATION_IDS,
      v1Operations.map((op) => op.operationId),
    );
  });

  it('generated/operations.json has the documented shape and equals the source rows', () => {
    const file = resolve(dirname(fileURLToPath(import.meta.url)), '../generated/operations.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { digest: string; v1: unknown[]; v0: unknown[] };
    assert.deepEqual(Object.keys(json), ['digest', 'v1', 'v0']);
    assert.equal(json.digest, computeRegistryDigest());
    assert.deepEqual(json.v1, v1Operations.map(toV1Row));
    assert.deepEqual(json.v0, v0Operations.map(toV0Row));
    assert.deepEqual(Object.keys(json.v1[0] as object), [
      'operationId',
      'method',
      'path',
      'family',
      'scopes',
      'anyOfScopes',
      'overlayScopes',
      'authenticated',
      'concurrency',
      'idempotent',
      'retry',
      'async',
      'sensitive',
    ]);
    assert.deepEqual(Object.keys(json.v0[0] as object), ['method', 'path', 'availability', 'migrationClass', 'v1OperationId', 'authenticated']);
  });
});
