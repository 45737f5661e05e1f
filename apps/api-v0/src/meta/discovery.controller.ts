import { Controller, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@workcell/config';
import { APP_CONFIG, LegacyOperation } from '@workcell/http';

/**
 * `GET /`, the v0 discovery redirect: it sends callers to v1's discovery document (getApiVersion), which
 * is where new integrations belong (contract 1, 4.3). The v0 OpenAPI document stays at /openapi.json.
 */
@Controller()
export class DiscoveryController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @LegacyOperation('legacyGetRoot')
  discover(@Res() reply: FastifyReply) {
    return reply.status(302).header('location', `${this.config.baseUrls.v1}/v1`).header('cache-control', 'public, max-age=300').send();
  }
}
