import { defineProcedure } from '../kernel/procedure.js';
import { lifecycleRequestInput, type LifecycleOperationView, requestProjectLifecycle } from './lifecycle-view.js';

/** `reopenProject` (If-Match, async): accepts the transition as a lifecycle operation; the worker applies it (`project.reopened`). */
export const reopenProject = defineProcedure('reopenProject', lifecycleRequestInput, (op, input): Promise<LifecycleOperationView> => requestProjectLifecycle(op, 'reopen', input));
