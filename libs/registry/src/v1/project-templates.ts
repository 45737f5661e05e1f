import { z } from 'zod';
import { archivableFields, DateOnly, LongText, Name, patchOf, ResourceId, Revision } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';
import { Project } from './projects.js';

const f = family('project-templates');

export const TaskBlueprint = z
  .strictObject({
    title: Name,
    description: LongText.nullable().optional(),
    offsetDays: z.number().int().min(0).max(3650).describe('Start offset from the project start.'),
    durationDays: z.number().int().min(0).max(3650).optional(),
  })
  .meta({ id: 'TaskBlueprint', description: 'A task created on instantiation.' });

export const ProjectTemplate = z
  .object({
    ...archivableFields,
    name: z.string(),
    description: z.string().nullable(),
    taskBlueprints: z.array(TaskBlueprint),
    revision: Revision,
  })
  .meta({ id: 'ProjectTemplate', description: 'A project template. Mutations need If-Match.' });

const templateFields = z.strictObject({
  name: Name,
  description: LongText.nullable().optional(),
  taskBlueprints: z.array(TaskBlueprint).max(500).optional(),
});
export const ProjectTemplateCreate = templateFields.meta({ id: 'ProjectTemplateCreate', description: 'Attributes of a new project template.' });
export const ProjectTemplateUpdate = patchOf(templateFields, 'ProjectTemplateUpdate', 'Mutable project-template attributes.');

export const ProjectTemplateInstantiation = z
  .strictObject({
    name: Name,
    customerId: ResourceId.nullable().optional(),
    startsOn: DateOnly,
  })
  .meta({ id: 'ProjectTemplateInstantiation', description: 'The project to create from a template.' });

export const projectTemplateOperations = [
  f.list('listProjectTemplates', '/v1/project-templates', { scopes: ['project-templates:read'], item: ProjectTemplate }),
  f.create('createProjectTemplate', '/v1/project-templates', {
    scopes: ['project-templates:write'],
    etag: true,
    body: ProjectTemplateCreate,
    data: ProjectTemplate,
  }),
  f.get('getProjectTemplate', '/v1/project-templates/{id}', {
    scopes: ['project-templates:read'],
    etag: true,
    data: ProjectTemplate,
  }),
  f.update('updateProjectTemplate', '/v1/project-templates/{id}', {
    scopes: ['project-templates:write'],
    concurrency: 'if-match',
    etag: true,
    body: ProjectTemplateUpdate,
    data: ProjectTemplate,
  }),
  f.archive('archiveProjectTemplate', '/v1/project-templates/{id}', {
    scopes: ['project-templates:write'],
    concurrency: 'if-match',
  }),
  f.restore('restoreProjectTemplate', '/v1/project-templates/{id}/restore', {
    scopes: ['project-templates:write'],
    concurrency: 'if-match',
    etag: true,
    data: ProjectTemplate,
  }),
  f.action('POST', 'instantiateProjectTemplate', '/v1/project-templates/{id}/instantiate', {
    summary: 'Create a project from a template',
    description: 'Reads the template (project-templates:read) and creates a project (projects:write).',
    scopes: ['project-templates:read', 'projects:write'],
    success: 201,
    etag: true,
    body: ProjectTemplateInstantiation,
    data: Project,
  }),
] satisfies readonly OperationDefinition[];
