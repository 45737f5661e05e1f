export { RegistryAgreementModule, registryAgreementCheck } from './agreement.js';
export { createInternalClient, mountInternalApi } from './mount.js';
export {
  type AuthRouter,
  createAuthRouter,
  createSystemRouter,
  createWorkerRouter,
  expose,
  INTERNAL_HEADER,
  INTERNAL_PATH,
  type InternalContext,
  internalProcedure,
  internalToken,
  isInternalCaller,
  rethrowDomainError,
  router,
  type ServiceInfo,
  type WireDomainError,
  type WorkerRouter,
} from './trpc.js';
