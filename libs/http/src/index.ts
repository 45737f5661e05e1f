export { createHttpApplication, type HttpApplicationOptions, requestIdFor, runService, serve } from './bootstrap.js';
export { CoreModule, type CoreModuleOptions } from './core.module.js';
export { checkReadiness, HealthController, Readiness, type ReadinessReport } from './health.controller.js';
export { createLogger, type Logger, NestPinoLogger, REDACTED_PATHS } from './logger.js';
export { APP_CONFIG, DATABASE, INFRASTRUCTURE_METADATA, LOGGER, PROCEDURE_CONTEXT, type ReadinessProbe, REDIS } from './tokens.js';
export { INFRASTRUCTURE_ROUTES, routeCoverage } from './bootstrap.js';
export { type ApiGeneration, compareWithRegistry, LegacyOperation, Operation, OPERATION_METADATA, registryRoutes, type RouteCoverage, routePath } from './operations.js';
export { DOMAIN_STATUS, type Problem, ProtocolError, titleFor, toProblem } from './problems.js';
export { type ErrorRenderer, ProblemFilter, sendProblem, v0Errors, v1Errors } from './protocols.js';
