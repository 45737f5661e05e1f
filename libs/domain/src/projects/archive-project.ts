import { defineProcedure } from '../kernel/procedure.js';
import { lifecycleRequestInput, type LifecycleOperationView, requestProjectLifecycle } from './lifecycle-view.js';

/** `archiveProject` (If-Match, async): accepts the transition as a lifecycle operation; the worker applies it (`project.archived`). */
export const archiveProject = defineProcedure('archiveProject', lifecycleRequestInput, (op, input): Promise<LifecycleOperationView> => requestProjectLifecycle(op, 'archive', input));
