export { type AppConfig, ConfigError, configFrom, environmentSchema, loadConfig, loadConfigOrExit } from './config.js';
