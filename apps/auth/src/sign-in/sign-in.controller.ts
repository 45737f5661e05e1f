import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import { completeSignIn, formToken, type ProcedureContext, requestSignIn } from '@workcell/domain';
import { APP_CONFIG, LOGGER, type Logger, PROCEDURE_CONTEXT, ProtocolError, REDIS } from '@workcell/http';
import type { Redis } from '@workcell/redis';
import { checkMailPage, completeSignInPage, COPY_SCRIPT, signInRequestPage, STYLESHEET } from './pages.js';
import { sendFailure, sendPage, seeOther } from './respond.js';
import { cookiesOf, field, FORM_COOKIE, formBinding, isJson, requireFormToken, RETURN_COOKIE, setCookie, setSessionCookie, spendSignInBudget } from './web.js';

/**
 * Sign-in by e-mail link (docs/authentication.md "Signing in"), routes of the auth service outside the v1 registry:
 * `GET /sign-in` (the form; with `?token=` the page that finishes, never consuming on GET: mail scanners prefetch
 * links), `POST /sign-in` (`{ email }`, form or JSON: 202 whether or not the address is known; a known user's link is
 * committed with its e-mail due, and the worker mails it), `POST /sign-in/complete` (uses the token once, starts the session, 303 to /account).
 */
@Controller()
export class SignInController {
  constructor(
    @Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get('sign-in/style.css')
  stylesheet(@Res() reply: FastifyReply): void {
    void reply.header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').type('text/css; charset=utf-8').send(STYLESHEET);
  }

  @Get('account/copy.js')
  script(@Res() reply: FastifyReply): void {
    void reply.header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').type('text/javascript; charset=utf-8').send(COPY_SCRIPT);
  }

  @Get('sign-in')
  page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const binding = formBinding(request, reply, this.config);
    const token = (request.query as Record<string, unknown> | undefined)?.['token'];
    if (typeof token === 'string' && token.length > 0) {
      sendPage(reply, 200, completeSignInPage(formToken(this.config, binding), token.slice(0, 200)));
      return;
    }
    sendPage(reply, 200, signInRequestPage(formToken(this.config, binding)));
  }

  @Post('sign-in')
  async request(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const json = isJson(request);
    try {
      // A JSON body needs no form token: a cross-site page cannot send application/json without a preflight, which this service never allows.
      if (!json) requireFormToken(this.config, cookiesOf(request)[FORM_COOKIE], request.body);
      const email = field(request.body, 'email')?.trim().toLowerCase() ?? null;
      const wait = await spendSignInBudget(this.redis, this.config, request.ip, email);
      if (wait !== null) throw new ProtocolError(429, 'rate_limit_exceeded', 'too many sign-in requests: try again later', [], { 'retry-after': String(wait) });
      await requestSignIn(this.ctx, { email: email ?? '' });
    } catch (error) {
      sendFailure(reply, request, error, this.logger, 'Sign-in');
      return;
    }
    // The same answer either way, only once the link (if any) is committed: the worker mails it.
    if (json)
      void reply
        .status(202)
        .header('cache-control', 'no-store')
        .send({ data: { status: 'accepted' } });
    else sendPage(reply, 202, checkMailPage());
  }

  @Post('sign-in/complete')
  async complete(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      requireFormToken(this.config, cookiesOf(request)[FORM_COOKIE], request.body);
      const session = await completeSignIn(this.ctx, field(request.body, 'token'), request.id);
      setSessionCookie(reply, this.config, session.secret);
      // Back to the device login that sent the person here (only that page, only its own code), else the account page.
      const back = cookiesOf(request)[RETURN_COOKIE];
      if (back !== undefined) setCookie(reply, this.config, RETURN_COOKIE, '', 0);
      seeOther(reply, back !== undefined && /^\/device(\?user_code=[A-Z]{8})?$/.test(back) ? back : '/account');
    } catch (error) {
      sendFailure(reply, request, error, this.logger, 'Sign-in link');
    }
  }
}
