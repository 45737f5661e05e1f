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

/**
 * The list procedures differ in their filters; an export passes only `auth`, `limit` and `cursor`, which all take.
 * A procedure is named after its operation, whose registry entry gives the item's fields.
 */
const source = (list: { readonly name: string }) => ({ list: list as unknown as ListProcedure, operationId: list.name });

export const EXPORT_SOURCES: Readonly<Record<Exclude<ResourceDomain, 'comments'>, { list: ListProcedure; operationId: string }>> = {
  projects: source(listProjects),
  tasks: source(listTasks),
  'time-entries': source(listTimeEntries),
  contacts: source(listContacts),
  'call-notes': source(listCallNotes),
  'contact-groups': source(listContactGroups),
  lists: source(listLists),
  services: source(listServices),
  tags: source(listTags),
  'project-templates': source(listProjectTemplates),
  products: source(listProducts),
  'product-groups': source(listProductGroups),
  'project-statements': source(listProjectStatements),
  documents: source(listDocuments),
  files: source(listFiles),
  users: source(listUsers),
};

/** The fields of a resource type's list item, in the registry's order: the CSV columns. */
export function columnsOf(domain: keyof typeof EXPORT_SOURCES): string[] {
  const response = getV1Operation(EXPORT_SOURCES[domain].operationId).response;
  const schema = (response as { schema?: { shape?: Record<string, unknown> } }).schema;
  return Object.keys(schema?.shape ?? {});
}
