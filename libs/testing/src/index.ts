export { createTestDatabase, ensureTemplateDatabase, type TestDatabase, useTestDatabase } from './database.js';
export { createRedisPrefix, dropRedisPrefix } from './redis.js';
export { type AppFactory, type ListeningApp, type RunningApp, startApp, testConfig, type TestEnvironment, useTestEnvironment } from './app.js';
export { projectSourceDirs, sourceFiles } from './sources.js';
export { TcpProxy } from './tcp-proxy.js';
export { exitCodeOf, type ServiceProcess, spawnProcess, spawnService } from './process.js';
export { freePort, type RedisServer, startRedisServer } from './redis-server.js';
export { waitFor } from './wait.js';
export { harnessMode, type HarnessMode, type HarnessService, PGBOUNCER_POOL_SIZE, startHarnessModes, startPgBouncer, startRedisCluster } from './harness.js';
