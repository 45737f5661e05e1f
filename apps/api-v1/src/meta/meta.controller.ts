import { Controller, Header, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import { authenticationLinks } from '@workcell/domain';
import { APP_CONFIG, Operation, servedOpenApiDocument } from '@workcell/http';

/** The two operations a client may call before it has a credential. */
@Controller()
export class MetaController {
  private readonly version: unknown;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.version = { data: { apiVersion: 'v1', openapiUrl: '/v1/openapi.json', legacy: { version: '0.4.5', status: 'frozen-legacy' }, authentication: authenticationLinks(config) } };
  }

  @Operation('getApiVersion')
  getApiVersion() {
    return this.version;
  }

  @Operation('getOpenApiDocument')
  @Header('Cache-Control', 'public, max-age=300')
  getOpenApiDocument(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    // The registry's document byte for byte (br or gzip when accepted; 304 when If-None-Match names it).
    return servedOpenApiDocument('v1').send(request, reply, 'application/json; charset=utf-8');
  }
}
