import { Controller, Get, Header, HttpCode, Inject, Res, SetMetadata } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { currentDependencyBudget, dependencyDeadline, DependencyTimeoutError } from '@workcell/config';
import { INFRASTRUCTURE_METADATA, type ReadinessProbe } from './tokens.js';

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, { status: 'up' | 'down'; reason?: string }>;
}

/**
 * Runs every probe concurrently; one failing probe makes the service not ready. Within a request, a probe that
 * has not answered when the request's dependency budget runs out counts as down, so /readyz itself answers
 * within DEPENDENCY_TIMEOUT_MS whatever a probe waits on.
 */
export async function checkReadiness(probes: readonly ReadinessProbe[]): Promise<ReadinessReport> {
  const budget = currentDependencyBudget();
  const cancels: (() => void)[] = [];
  const bounded = (probe: ReadinessProbe): Promise<void> => {
    if (!budget) return probe.check();
    const ms = budget.remaining();
    const timeout = new Promise<never>((_, reject) => {
      cancels.push(dependencyDeadline(ms, () => reject(new DependencyTimeoutError(probe.name, budget.totalMs))));
    });
    return Promise.race([probe.check(), timeout]);
  };
  const results = await Promise.allSettled(probes.map(bounded));
  for (const cancel of cancels) cancel();
  const checks: ReadinessReport['checks'] = {};
  probes.forEach((probe, i) => {
    const result = results[i]!;
    checks[probe.name] = result.status === 'fulfilled' ? { status: 'up' } : { status: 'down', reason: result.reason instanceof Error ? result.reason.message : String(result.reason) };
  });
  return { status: Object.values(checks).every((c) => c.status === 'up') ? 'ready' : 'not_ready', checks };
}

/** The service's readiness conditions; modules add their own (queues, registry agreement) at start-up. */
export class Readiness {
  private readonly probes: ReadinessProbe[] = [];

  constructor(probes: readonly ReadinessProbe[] = []) {
    this.probes.push(...probes);
  }

  add(probe: ReadinessProbe): void {
    this.probes.push(probe);
  }

  check(): Promise<ReadinessReport> {
    return checkReadiness(this.probes);
  }
}

/**
 * Liveness and readiness for orchestrators. These are operational endpoints, not API operations, so they
 * are not in the operation registry and need no credential.
 */
@Controller()
@SetMetadata(INFRASTRUCTURE_METADATA, true)
export class HealthController {
  constructor(@Inject(Readiness) private readonly readiness: Readiness) {}

  /** The process is up and its event loop turns; says nothing about dependencies. */
  @Get('healthz')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  healthz() {
    return { status: 'ok' };
  }

  /** PostgreSQL and Redis (and any other registered dependency) answer. */
  @Get('readyz')
  @Header('Cache-Control', 'no-store')
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessReport> {
    const report = await this.readiness.check();
    reply.status(report.status === 'ready' ? 200 : 503);
    return report;
  }
}
