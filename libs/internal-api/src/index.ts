export { createInternalClient, mountInternalApi } from './mount.js';
export {
  createSystemRouter,
  createWorkerRouter,
  INTERNAL_HEADER,
  INTERNAL_PATH,
  type InternalContext,
  internalProcedure,
  internalToken,
  isInternalCaller,
  router,
  type ServiceInfo,
  type WorkerRouter,
} from './trpc.js';
