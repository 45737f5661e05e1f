import type { V0Method, V0OperationDefinition } from '../types.js';
import { v0CalendarOperations } from './calendar.js';
import { v0CallNoteOperations } from './callnotes.js';
import { v0ContactGroupOperations } from './contactgroups.js';
import { v0ContactOperations } from './contacts.js';
import { v0JournalEntryOperations } from './journal-entries.js';
import { v0ListOperations } from './lists.js';
import { v0ProductGroupOperations } from './productgroups.js';
import { v0ProductOperations } from './products.js';
import { v0ProjectTemplateOperations } from './project-templates.js';
import { v0ProjectOperations } from './projects.js';
import { v0RootOperations } from './root.js';
import { v0ScheduledWorkOperations } from './scheduled-work.js';
import { v0ServiceOperations } from './services.js';
import { v0TagOperations } from './tags.js';
import { v0TaskOperations } from './tasks.js';
import { v0TeamOperations } from './teams.js';
import { v0TimeOperations } from './times.js';
import { v0UserOperations } from './users.js';
import { v0WebhookOperations } from './webhooks.js';

/** The frozen v0 contract 0.4.5: all 87 rows of contract 4.3, in table order. */
export const v0Operations: readonly V0OperationDefinition[] = Object.freeze([
  ...v0RootOperations,
  ...v0CalendarOperations,
  ...v0CallNoteOperations,
  ...v0ContactGroupOperations,
  ...v0ContactOperations,
  ...v0JournalEntryOperations,
  ...v0ListOperations,
  ...v0ProductGroupOperations,
  ...v0ProductOperations,
  ...v0ProjectOperations,
  ...v0ProjectTemplateOperations,
  ...v0ScheduledWorkOperations,
  ...v0ServiceOperations,
  ...v0TagOperations,
  ...v0TaskOperations,
  ...v0TeamOperations,
  ...v0TimeOperations,
  ...v0UserOperations,
  ...v0WebhookOperations,
]);

const byRoute = new Map(v0Operations.map((op) => [`${op.method} ${op.path}`, op]));

/** The v0 operation declared for this method and path template (e.g. `GET /tasks/{_id}`). */
export function findV0Operation(method: V0Method, pathTemplate: string): V0OperationDefinition | undefined {
  return byRoute.get(`${method} ${pathTemplate}`);
}
