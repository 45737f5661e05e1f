import { getV1Operation, type ResourceDomain } from '@workcell/registry';
import { listCallNotes } from '../call-notes/list-call-notes.js';
import { listContactGroups } from '../contact-groups/list-contact-groups.js';
import { listContacts } from '../contacts/list-contacts.js';
import { listDocuments } from '../documents/list-documents.js';
import { listFiles } from '../files/list-files.js';
import { listLists } from '../lists/list-lists.js';
import { listProductGroups } from '../product-groups/list-product-groups.js';
import { listProducts } from '../products/list-products.js';
import { listProjectStatements } from '../project-statements/list-project-statements.js';
import { listProjectTemplates } from '../project-templates/list-project-templates.js';
import { listProjects } from '../projects/list-projects.js';
import { listServices } from '../services/list-services.js';
import { listTags } from '../tags/list-tags.js';
import { listTasks } from '../tasks/list-tasks.js';
import { listTimeEntries } from '../time-entries/list-time-entries.js';
import { listUsers } from '../users/list-users.js';
import type { Procedure } from '../kernel/procedure.js';

/**
 * Where an export reads each resource type: that family's own list procedure, called with the creator's stored
 * authorization. So an export applies exactly the rules the list applies (archived rows left out, resource grants,
 * finance overlays, any member boundary) and shows each row exactly as the list does: one rule, in one place.
 */
type ListProcedure = Procedure<never, { items: readonly unknown[]; nextCursor: string | null }>;

export const EXPORT_SOURCES: Readonly<Record<Exclude<ResourceDomain, 'comments'>, { list: ListProcedure; operationId: string }>> = {
  projects: { list: listProjects as unknown as ListProcedure, operationId: 'listProjects' },
  tasks: { list: listTasks as unknown as ListProcedure, operationId: 'listTasks' },
  'time-entries': { list: listTimeEntries as unknown as ListProcedure, operationId: 'listTimeEntries' },
  contacts: { list: listContacts as unknown as ListProcedure, operationId: 'listContacts' },
  'call-notes': { list: listCallNotes as unknown as ListProcedure, operationId: 'listCallNotes' },
  'contact-groups': { list: listContactGroups as unknown as ListProcedure, operationId: 'listContactGroups' },
  lists: { list: listLists as unknown as ListProcedure, operationId: 'listLists' },
  services: { list: listServices as unknown as ListProcedure, operationId: 'listServices' },
  tags: { list: listTags as unknown as ListProcedure, operationId: 'listTags' },
  'project-templates': { list: listProjectTemplates as unknown as ListProcedure, operationId: 'listProjectTemplates' },
  products: { list: listProducts as unknown as ListProcedure, operationId: 'listProducts' },
  'product-groups': { list: listProductGroups as unknown as ListProcedure, operationId: 'listProductGroups' },
  'project-statements': { list: listProjectStatements as unknown as ListProcedure, operationId: 'listProjectStatements' },
  documents: { list: listDocuments as unknown as ListProcedure, operationId: 'listDocuments' },
  files: { list: listFiles as unknown as ListProcedure, operationId: 'listFiles' },
  users: { list: listUsers as unknown as ListProcedure, operationId: 'listUsers' },
};

/** The fields of a resource type's list item, in the registry's order: the CSV columns. */
export function columnsOf(domain: keyof typeof EXPORT_SOURCES): string[] {
  const response = getV1Operation(EXPORT_SOURCES[domain].operationId).response;
  const schema = (response as { schema?: { shape?: Record<string, unknown> } }).schema;
  return Object.keys(schema?.shape ?? {});
}
