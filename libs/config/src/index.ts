export { type AppConfig, ConfigError, configFrom, environmentSchema, loadConfig, loadConfigOrExit } from './config.js';
export { currentDependencyBudget, DependencyBudget, DependencyTimeoutError, type DependencyCall, startDependencyCall, withDependencyBudget } from './dependency-budget.js';
