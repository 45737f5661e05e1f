import { z } from 'zod';
import { listProjectsPage } from '@workcell/db';
import { viewerOf } from '../kernel/visibility.js';
import { isUuid } from '../kernel/ids.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type ProjectView, projectView } from './view.js';

export const listProjectsInput = z
  .object({
    ...pageInput,
    status: z.enum(['active', 'completed', 'archived']).optional(),
    customerId: z.string().min(1).max(64).optional(),
    updatedSince: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

/** `GET /v1/projects`: the workspace's projects in id (creation) order; archived ones only with `status=archived`. */
export const listProjects = defineProcedure('listProjects', listProjectsInput, async (op, input): Promise<{ items: ProjectView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const { cursor, limit, status, customerId, updatedSince } = input;
  const filter = {
    ...(status === undefined ? {} : { status }),
    ...(customerId === undefined ? {} : { contactId: customerId.toLowerCase() }),
    ...(updatedSince === undefined ? {} : { updatedSince: new Date(updatedSince) }),
  };
  // A customer id that is no UUID names no project: an empty page, without asking the database.
  if (customerId !== undefined && !isUuid(customerId)) return { items: [], limit, nextCursor: null };
  const page = await paginate(op.config, { workspaceId: auth.workspaceId, list: 'listProjects', filter: { status, customerId, updatedSince } }, { cursor, limit }, (afterId, take) =>
    listProjectsPage(op.database, auth.workspaceId, filter, afterId, take, viewerOf(auth)),
  );
  return { items: page.items.map(projectView), limit, nextCursor: page.nextCursor };
});
