export { createHttpApplication, type HttpApplicationOptions, requestIdFor, runService, serve } from './bootstrap.js';
export { CoreModule, type CoreModuleOptions } from './core.module.js';
export { checkReadiness, HealthController, Readiness, type ReadinessReport } from './health.controller.js';
export { createLogger, type Logger, NestPinoLogger, REDACTED_PATHS } from './logger.js';
export { APP_CONFIG, DATABASE, LOGGER, type ReadinessProbe, REDIS } from './tokens.js';
