import { z } from 'zod';
import { archivableFields, casPatchOf, DateOnly, Money, MoneyInput, ResourceId, ShortText, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud } from './builders.js';

export const StatementKind = z.enum(['expense', 'revenue', 'budget']);
const Quantity = z
  .string()
  .max(18)
  .regex(/^-?\d{1,12}(\.\d{1,4})?$/);

export const ProjectStatement = z
  .object({
    ...archivableFields,
    projectId: ResourceId,
    kind: StatementKind.describe('`budget` statements are excluded unless project-statements:finance:read is held.'),
    occurredOn: DateOnly,
    description: z.string().nullable(),
    quantity: z.string(),
    unitPrice: Money,
    purchasePrice: Money.nullable().optional().describe('Omitted unless project-statements:finance:read is held.'),
    productId: ResourceId.nullable(),
    serviceId: ResourceId.nullable(),
    version: Version,
  })
  .meta({ id: 'ProjectStatement', description: 'A project statement (v0: journal entry).' });

const statementFields = z.strictObject({
  projectId: ResourceId,
  kind: StatementKind.describe('`budget` needs project-statements:finance:write.'),
  occurredOn: DateOnly,
  description: ShortText.nullable().optional(),
  quantity: Quantity,
  unitPrice: MoneyInput,
  purchasePrice: MoneyInput.nullable().optional().describe('Needs project-statements:finance:write.'),
  productId: ResourceId.nullable().optional(),
  serviceId: ResourceId.nullable().optional(),
});
export const ProjectStatementCreate = statementFields.meta({ id: 'ProjectStatementCreate', description: 'A new project statement.' });
export const ProjectStatementUpdate = casPatchOf(statementFields.omit({ projectId: true }), 'ProjectStatementUpdate', 'Compare-and-set of project-statement attributes.');

export const projectStatementOperations = [
  ...archivableCrud('project-statements', {
    singular: 'ProjectStatement',
    plural: 'ProjectStatements',
    path: '/v1/project-statements',
    read: ['project-statements:read'],
    write: ['project-statements:write'],
    readOverlay: ['project-statements:finance:read'],
    writeOverlay: ['project-statements:finance:write'],
    resource: ProjectStatement,
    create: ProjectStatementCreate,
    update: ProjectStatementUpdate,
    updateConcurrency: 'cas',
    filters: {
      projectId: ResourceId.optional(),
      kind: StatementKind.optional(),
      from: DateOnly.optional(),
      to: DateOnly.optional(),
    },
  }),
] satisfies readonly OperationDefinition[];
