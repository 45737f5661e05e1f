import { defineProcedure } from '../kernel/procedure.js';
import { lifecycleRequestInput, type LifecycleOperationView, requestProjectLifecycle } from './lifecycle-view.js';

/** `restoreProject` (If-Match, async): accepts the transition as a lifecycle operation; the worker applies it (`project.restored`). */
export const restoreProject = defineProcedure('restoreProject', lifecycleRequestInput, (op, input): Promise<LifecycleOperationView> => requestProjectLifecycle(op, 'restore', input));
