import { Inject, Injectable, Module } from '@nestjs/common';
import type { AppConfig } from '@workcell/config';
import { APP_CONFIG, Readiness } from '@workcell/http';
import { REGISTRY_DIGEST } from '@workcell/registry';
import { createInternalClient } from './mount.js';
import type { AuthRouter, WorkerRouter } from './trpc.js';

/**
 * Contract 5.2 rule 7: an API cell is not ready until the application cells (auth, worker) serve the same
 * operation registry as itself. Checked on every readiness probe, so a cell redeployed with another
 * registry turns its API cells unready until they agree again.
 */
export function registryAgreementCheck(config: AppConfig, digest: string = REGISTRY_DIGEST): () => Promise<void> {
  const peers = [
    { name: 'auth', client: createInternalClient<AuthRouter>(config.internalUrls.auth, config) },
    { name: 'worker', client: createInternalClient<WorkerRouter>(config.internalUrls.worker, config) },
  ];
  return async () => {
    const problems = await Promise.all(
      peers.map(async ({ name, client }) => {
        try {
          const info = await client.system.info.query();
          return info.registryDigest === digest ? null : `${name} serves registry ${info.registryDigest.slice(0, 12)}…, this cell ${digest.slice(0, 12)}…`;
        } catch (error) {
          return `${name} is unreachable (${error instanceof Error ? error.message : String(error)})`;
        }
      }),
    );
    const disagreements = problems.filter((p): p is string => p !== null);
    if (disagreements.length > 0) throw new Error(disagreements.join('; '));
  };
}

@Injectable()
class RegistryAgreement {
  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(Readiness) readiness: Readiness) {
    readiness.add({ name: 'registry', check: registryAgreementCheck(config) });
  }
}

/** Adds the registry-agreement readiness check to an API app. */
@Module({ providers: [RegistryAgreement] })
export class RegistryAgreementModule {}
