import { z } from 'zod';
import { archivableFields, AsyncOperation, DateOnly, ExpectedVersion, LongText, Name, patchOf, ResourceId, Revision, Timestamp, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('projects');

export const ProjectStatus = z.enum(['active', 'completed', 'archived']);

export const Project = z
  .object({
    ...archivableFields,
    name: z.string(),
    description: z.string().nullable(),
    status: ProjectStatus,
    customerId: ResourceId.nullable().describe('Contact id of the customer.'),
    startsOn: DateOnly.nullable(),
    dueOn: DateOnly.nullable(),
    tagIds: z.array(ResourceId),
    completedAt: Timestamp.nullable(),
    revision: Revision,
  })
  .meta({ id: 'Project', description: 'A project. Field mutations and lifecycle changes need If-Match.' });

const projectFields = z.strictObject({
  name: Name,
  description: LongText.nullable().optional(),
  customerId: ResourceId.nullable().optional(),
  startsOn: DateOnly.nullable().optional(),
  dueOn: DateOnly.nullable().optional(),
  tagIds: z.array(ResourceId).max(100).optional(),
});
export const ProjectCreate = projectFields.meta({ id: 'ProjectCreate', description: 'Attributes of a new project.' });
export const ProjectUpdate = patchOf(projectFields, 'ProjectUpdate', 'Mutable project attributes (send only those that change).');

export const ProjectAccessEntry = z
  .strictObject({
    principalType: z.enum(['member', 'group', 'service-account']),
    principalId: ResourceId,
    access: z.enum(['viewer', 'editor', 'manager']),
  })
  .meta({
    id: 'ProjectAccessEntry',
    description:
      'One access-control entry of a project: a member, the members of a group, or a service account, with `viewer` (reads the project and what belongs to it), `editor` (also changes them) or `manager` (also replaces the entries).',
  });

export const ProjectSharing = z.object({ projectId: ResourceId, entries: z.array(ProjectAccessEntry), version: Version }).meta({
  id: 'ProjectSharing',
  description:
    'The complete access-control list of a project. Without entries the project is open to the workspace (scopes and grants decide); with entries only the principals they name and workspace administrators see it and what belongs to it (tasks, time entries, planned work, statements, task recurrences, comments, activity, documents, custom-field values), on every path: gets, lists, search, exports, the change feed and webhooks.',
});

export const ProjectSharingReplace = z
  .strictObject({ expectedVersion: ExpectedVersion, entries: z.array(ProjectAccessEntry).max(500) })
  .meta({ id: 'ProjectSharingReplace', description: 'Atomic replacement of the access-control list.' });

const projectFilters = {
  status: ProjectStatus.optional(),
  customerId: ResourceId.optional(),
  updatedSince: Timestamp.optional(),
};

export const projectOperations = [
  f.list('listProjects', '/v1/projects', { scopes: ['projects:read'], query: projectFilters, item: Project }),
  f.create('createProject', '/v1/projects', { scopes: ['projects:write'], etag: true, body: ProjectCreate, data: Project }),
  f.get('getProject', '/v1/projects/{id}', { scopes: ['projects:read'], etag: true, data: Project }),
  f.update('updateProject', '/v1/projects/{id}', {
    scopes: ['projects:write'],
    concurrency: 'if-match',
    etag: true,
    body: ProjectUpdate,
    data: Project,
  }),
  f.action('POST', 'completeProject', '/v1/projects/{id}/complete', {
    scopes: ['projects:lifecycle'],
    concurrency: 'if-match',
    async: true,
  }),
  f.action('POST', 'reopenProject', '/v1/projects/{id}/reopen', {
    scopes: ['projects:lifecycle'],
    concurrency: 'if-match',
    async: true,
  }),
  f.archive('archiveProject', '/v1/projects/{id}', {
    description: 'Archives the project (no physical deletion). Accepted asynchronously; inspect the lifecycle operation.',
    scopes: ['projects:lifecycle'],
    concurrency: 'if-match',
    async: true,
  }),
  f.restore('restoreProject', '/v1/projects/{id}/restore', {
    scopes: ['projects:lifecycle'],
    concurrency: 'if-match',
    async: true,
    data: Project,
  }),
  f.list('listProjectLifecycleOperations', '/v1/projects/{id}/lifecycle-operations', {
    scopes: ['projects:lifecycle'],
    item: AsyncOperation,
  }),
  f.get('getProjectLifecycleOperation', '/v1/projects/{id}/lifecycle-operations/{lifecycleOperationId}', {
    scopes: ['projects:lifecycle'],
    data: AsyncOperation,
  }),
  f.get('getProjectSharing', '/v1/projects/{id}/sharing', { scopes: ['projects:sharing'], data: ProjectSharing }),
  f.replace('replaceProjectSharing', '/v1/projects/{id}/sharing', {
    summary: 'Atomically replace the project access-control entries',
    description:
      'Replaces the whole list (compare-and-set on its version). Only a `manager` of the project or a workspace administrator (roles:write and members:write) may; the first entries of an open project are an administrator’s to set, so nobody adds themselves. Anyone else who sees the project gets 403 `insufficient_project_access`; a caller the project is hidden from gets 404.',
    scopes: ['projects:sharing'],
    concurrency: 'cas',
    body: ProjectSharingReplace,
    data: ProjectSharing,
  }),
] satisfies readonly OperationDefinition[];
