export { type AppConfig, ConfigError, type FileStorageS3Config, type FilesConfig, configFrom, environmentSchema, loadConfig, loadConfigOrExit } from './config.js';
export { currentDependencyBudget, DependencyBudget, dependencyDeadline, DependencyTimeoutError, type DependencyCall, startDependencyCall, withDependencyBudget } from './dependency-budget.js';
export { isDependencyUnavailable } from './unavailable.js';
export { DEFAULT_RETRY_SCHEDULE, jitterDelayMs, parseRetrySchedule, retrySpanMs } from './retry-schedule.js';
