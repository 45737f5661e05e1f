import { defineProcedure } from '../kernel/procedure.js';
import { lifecycleRequestInput, type LifecycleOperationView, requestProjectLifecycle } from './lifecycle-view.js';

/** `completeProject` (If-Match, async): accepts the transition as a lifecycle operation; the worker applies it (`project.completed`). */
export const completeProject = defineProcedure('completeProject', lifecycleRequestInput, (op, input): Promise<LifecycleOperationView> => requestProjectLifecycle(op, 'complete', input));
