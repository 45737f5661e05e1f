import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import { accountOverview, createAccountToken, formToken, type ProcedureContext, revokeAccountToken, signOut, signOutEverywhere } from '@workcell/domain';
import { APP_CONFIG, LOGGER, type Logger, PROCEDURE_CONTEXT, toProblem } from '@workcell/http';
import type { SessionRecord } from '@workcell/db';
import { expiryDays } from './expiry-days.js';
import { accountPage, type AccountPageInput } from './pages.js';
import { answersWithPage, sendFailure, sendPage, seeOther } from './respond.js';
import { clearSessionCookie, field, postingSession, sessionOf } from './web.js';

/**
 * The account page (docs/authentication.md "Signing in"): the person's workspaces and, in each, their personal access
 * tokens, with create (shown once) and revoke; sign out and sign out everywhere. Every route needs a live session
 * (else 303 to /sign-in) and every post the session's form token (else 403).
 */
@Controller()
export class AccountController {
  constructor(
    @Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  private async render(reply: FastifyReply, status: number, session: SessionRecord, extra: Pick<AccountPageInput, 'created' | 'problem'> = {}): Promise<void> {
    const now = this.ctx.now();
    const workspaces = await accountOverview(this.ctx, session.userId);
    sendPage(
      reply,
      status,
      accountPage({
        name: session.name,
        email: session.email,
        workspaces,
        csrf: formToken(this.config, `session:${session.id}`),
        ...expiryDays(now),
        ...extra,
      }),
    );
  }

  @Get('account')
  async account(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const session = await sessionOf(this.ctx, request);
      if (!session) return seeOther(reply, '/sign-in');
      await this.render(reply, 200, session);
    } catch (error) {
      sendFailure(reply, request, error, this.logger);
    }
  }

  @Post('account/tokens')
  async create(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    let session: SessionRecord | null = null;
    try {
      session = await postingSession(this.ctx, request, reply);
      if (!session) return;
      const body = request.body as Record<string, unknown>;
      const scopes = body['scopes'] === undefined ? [] : ([] as unknown[]).concat(body['scopes']);
      const created = await createAccountToken(
        this.ctx,
        session.userId,
        { workspaceId: field(body, 'workspaceId'), name: field(body, 'name'), scopes, expiresOn: field(body, 'expiresOn') },
        request.id,
      );
      const workspaces = await accountOverview(this.ctx, session.userId);
      const workspaceName = workspaces.find((w) => w.workspaceId === created.workspaceId)?.workspaceName ?? created.workspaceId;
      // The secret is in this response only: no redirect, no cache.
      await this.render(reply, 201, session, { created: { workspaceName, name: created.name, secret: created.secret } });
    } catch (error) {
      const problem = toProblem(error);
      // A refusal the person can correct is shown on the page itself, with its status.
      if (session && problem.status < 500 && problem.status !== 403 && answersWithPage(request)) {
        await this.render(reply, problem.status, session, { problem: problem.detail }).catch((e: unknown) => sendFailure(reply, request, e, this.logger));
        return;
      }
      sendFailure(reply, request, error, this.logger, 'Creating a token');
    }
  }

  @Post('account/tokens/revoke')
  async revoke(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const session = await postingSession(this.ctx, request, reply);
      if (!session) return;
      await revokeAccountToken(this.ctx, session.userId, { workspaceId: field(request.body, 'workspaceId'), id: field(request.body, 'id') }, request.id);
      seeOther(reply, '/account');
    } catch (error) {
      sendFailure(reply, request, error, this.logger, 'Revoking a token');
    }
  }

  @Post('sign-out')
  async signOut(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const session = await postingSession(this.ctx, request, reply);
      if (!session) return;
      await signOut(this.ctx, session, request.id);
      clearSessionCookie(reply, this.config);
      seeOther(reply, '/sign-in');
    } catch (error) {
      sendFailure(reply, request, error, this.logger, 'Sign out');
    }
  }

  @Post('sign-out/everywhere')
  async signOutEverywhere(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const session = await postingSession(this.ctx, request, reply);
      if (!session) return;
      await signOutEverywhere(this.ctx, session, request.id);
      clearSessionCookie(reply, this.config);
      seeOther(reply, '/sign-in');
    } catch (error) {
      sendFailure(reply, request, error, this.logger, 'Sign out');
    }
  }
}
