import { createApiV0App } from '@workcell/api-v0';
import { createApiV1App } from '@workcell/api-v1';
import { V1_SCOPES } from '@workcell/credentials';
import { createDatabase, type Database, issueCredential, issueTeamToken, seedDemoWorkspaceIfEmpty, inTransaction } from '@workcell/db';
import { type RunningApp, startApp, TcpProxy, testConfig, type TestEnvironment } from '@workcell/testing';
import { startCellServices } from '@workcell/e2e/support/cell';

/**
 * The platform for the fault check: the e2e cell's auth service and worker, and api-v1 and api-v0 instances
 * that reach PostgreSQL, Redis and the auth service only through the harness's TcpProxy, one per dependency,
 * so the check can cut or black-hole each without touching the machine's shared servers.
 */
export interface FaultyPlatform {
  readonly database: Database;
  readonly v1: RunningApp;
  readonly v0: RunningApp;
  readonly proxies: { readonly postgres: TcpProxy; readonly redis: TcpProxy; readonly auth: TcpProxy };
  readonly dependencyTimeoutMs: number;
  readonly pat: string;
  teamToken(): string;
  /**
   * Credentials only the recovery probe uses: the load spends the rate limits of `pat` and the team tokens (a
   * request refused with 503 during a fault is still counted), so a probe sharing them could read 429 for the rest
   * of the window and take it for a service that did not recover.
   */
  readonly probe: { readonly pat: string; readonly teamToken: string };
  close(): Promise<void>;
}

export async function startFaultyPlatform(env: TestEnvironment, settings: Record<string, string>, dependencyTimeoutMs: number): Promise<FaultyPlatform> {
  const database = createDatabase(env.config, { poolSize: 2 });
  const demo = await seedDemoWorkspaceIfEmpty(database, env.config);
  if (!demo) throw new Error('the fault check needs an empty database');
  const services = await startCellServices(env);
  const postgres = await TcpProxy.start(env.databaseUrl);
  const redis = await TcpProxy.start(env.config.redis.url);
  const auth = await TcpProxy.start(services.auth.url);
  const config = testConfig({
    ...settings,
    DATABASE_URL: postgres.rewrite(env.databaseUrl),
    REDIS_URL: redis.rewrite(env.config.redis.url),
    REDIS_PREFIX: env.redisPrefix,
    AUTH_INTERNAL_URL: auth.rewrite(services.auth.url).replace(/\/$/, ''),
    WORKER_INTERNAL_URL: services.worker.url,
    DEPENDENCY_TIMEOUT_MS: String(dependencyTimeoutMs),
  });
  const v1 = await startApp(createApiV1App, config);
  const v0 = await startApp(createApiV0App, config);
  const memberId = (await database.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId: demo.workspaceId } })).id;
  const teamTokens: string[] = [];
  for (let i = 0; i < 20; i++) {
    teamTokens.push(await inTransaction(database, (tx) => issueTeamToken(tx, env.config, { workspaceId: demo.workspaceId, name: `faults-${i}`, createdByMemberId: memberId })));
  }
  const probe = await inTransaction(database, async (tx) => ({
    pat: (await issueCredential(tx, env.config, { workspaceId: demo.workspaceId, kind: 'personal_access_token', name: 'faults-probe', scopes: V1_SCOPES, memberId })).token,
    teamToken: await issueTeamToken(tx, env.config, { workspaceId: demo.workspaceId, name: 'faults-probe', createdByMemberId: memberId }),
  }));
  let turn = 0;
  return {
    database,
    v1,
    v0,
    proxies: { postgres, redis, auth },
    dependencyTimeoutMs,
    pat: demo.personalAccessToken,
    teamToken: () => teamTokens[turn++ % teamTokens.length]!,
    probe,
    async close() {
      for (const app of [v0, v1]) await app.close();
      await services.close();
      for (const proxy of [postgres, redis, auth]) await proxy.close();
      await database.close();
    },
  };
}
