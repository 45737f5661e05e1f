export { ApiAuthModule, Op } from './auth.module.js';
export { AUTH_CLIENT, type AuthClient, createAuthClient, CredentialRecheck, internalFailure, OperationGuard, RegistryOperationGate } from './authentication.js';
export { AuthorizationHeaderStrategy } from './bearer.strategy.js';
