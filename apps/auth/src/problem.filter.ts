import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '@workcell/http';
import { sendFailure } from './sign-in/respond.js';

/**
 * What a request of the auth service can throw outside its controllers' own handling (Fastify's body parsing: a
 * media type it does not read, malformed or oversized bodies; unknown routes and methods) is answered as the
 * controllers answer theirs (sendFailure: the v1 error document or a page), never as Nest's default 500.
 */
@Catch()
export class AuthProblemFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendFailure(http.getResponse<FastifyReply>(), http.getRequest<FastifyRequest>(), error, this.logger);
  }
}
