export { createHttpApplication, type HttpApplicationOptions, requestIdFor, runService, serve } from './bootstrap.js';
export { CoreModule, type CoreModuleOptions } from './core.module.js';
export { checkReadiness, HealthController, Readiness, type ReadinessReport } from './health.controller.js';
export { createLogger, type Logger, NestPinoLogger, REDACTED_PATHS } from './logger.js';
export { APP_CONFIG, DATABASE, INFRASTRUCTURE_METADATA, LOGGER, PROCEDURE_CONTEXT, type ReadinessProbe, REDIS, SERVICE_NAME } from './tokens.js';
export { INFRASTRUCTURE_ROUTES, mountedRoutes, routeCoverage } from './bootstrap.js';
export {
  type ApiGeneration,
  compareWithRegistry,
  LegacyOperation,
  type MountedRoute,
  Operation,
  OPERATION_METADATA,
  operationParameter,
  registryRoutes,
  type RouteCoverage,
  routePath,
} from './operations.js';
export { DATA_EXCEPTION_DETAIL, dependencyUnavailable, DOMAIN_STATUS, isDataException, type Problem, ProtocolError, titleFor, toProblem, UNAVAILABLE_DETAIL } from './problems.js';
export { bearerChallenge, type ErrorRenderer, ProblemFilter, reportFailure, sendFailure, sendProblem, v0Errors, v1Errors } from './protocols.js';
export { hostileInputIssues, Input, type OperationInput, validateOperationInput } from './validation.js';
export { list, revisioned, single, versioned } from './envelope.js';
export { consume, decodedPath, installRateLimit, type KnownAdmission, type RateLimitDecision, RateLimiter, refund } from './rate-limit.js';
export { OPERATION_GATE, type OperationGate } from './operation-gate.js';
export { allowedMethods, installMethodNotAllowed } from './methods.js';
export { checkIdempotencyKey, IDEMPOTENCY_RETENTION_MS, runIdempotent } from './idempotency.js';
export { mountOperation, type OperationHandler, operationHandlers, type OperationRequest } from './operation-routes.js';
export { etagOf, expectedRevisionFrom } from './preconditions.js';
export { type ContentCoding, negotiateCoding, Precompressed } from './compression.js';
export { REFERENCE_PAGES, referenceDocument, servedOpenApiDocument } from './reference.js';
export { installObservability, METRICS_PATH, recordErrorCode, UNMATCHED } from './observability.js';
