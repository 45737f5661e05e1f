import { Controller, Header, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Operation } from '@workcell/http';
import { openApiDocument } from '@workcell/registry';

/** The two operations a client may call before it has a credential. */
@Controller()
export class MetaController {
  @Operation('getApiVersion')
  getApiVersion() {
    return { data: { apiVersion: 'v1', openapiUrl: '/v1/openapi.json', legacy: { version: '0.4.5', status: 'frozen-legacy' } } };
  }

  @Operation('getOpenApiDocument')
  @Header('Cache-Control', 'public, max-age=300')
  getOpenApiDocument(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const document = openApiDocument('v1');
    reply.header('etag', document.etag);
    if (request.headers['if-none-match'] === document.etag) return reply.status(304).send();
    return reply.type('application/json; charset=utf-8').send(document.text);
  }
}
