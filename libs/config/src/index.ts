export { type AppConfig, ConfigError, configFrom, environmentSchema, loadConfig, loadConfigOrExit } from './config.js';
export { currentDependencyBudget, DependencyBudget, DependencyTimeoutError, dependencyTimeout, withDependencyBudget } from './dependency-budget.js';
