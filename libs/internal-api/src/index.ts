export { RegistryAgreementModule, registryAgreementCheck } from './agreement.js';
export { createInternalClient, mountInternalApi } from './mount.js';
export {
  type AuthRouter,
  type WireOperation,
  wireOperation,
  createAuthRouter,
  createSystemRouter,
  createWorkerRouter,
  expose,
  exposeOperation,
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
