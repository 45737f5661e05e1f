import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import {
  accountOverview,
  approveDeviceLogin,
  authenticationLinks,
  denyDeviceLogin,
  findDeviceLogin,
  formToken,
  normalUserCode,
  type ProcedureContext,
  redeemDeviceLogin,
  startDeviceLogin,
} from '@workcell/domain';
import type { SessionRecord } from '@workcell/db';
import { APP_CONFIG, LOGGER, type Logger, PROCEDURE_CONTEXT, ProtocolError, REDIS, reportFailure, sendProblem, toProblem } from '@workcell/http';
import type { Redis } from '@workcell/redis';
import { day, expiryDays } from '../sign-in/expiry-days.js';
import { sendFailure, sendPage, seeOther } from '../sign-in/respond.js';
import { field, hashed, postingSession, RETURN_COOKIE, sessionOf, setCookie, spendBudget } from '../sign-in/web.js';
import { oauthErrors } from './oauth.js';
import { deviceApprovalPage, deviceCodePage, deviceDonePage } from './pages.js';

/**
 * Wrong codes a session may enter in 15 minutes, and a client address (several people behind one NAT): guessing one
 * of 2.6 × 10^10 codes, each alive 15 minutes, is hopeless at these rates.
 */
const CODE_GUESSES_PER_SESSION = 10;
const CODE_GUESSES_PER_CLIENT = 50;

const bodyOf = (request: FastifyRequest): Readonly<Record<string, unknown>> => {
  const body = request.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
};

/**
 * Device login for the CLI (RFC 8628; docs/authentication.md "Device login"), routes of the auth service outside the
 * v1 registry. The device's endpoints: `POST /device/code` (starts a login: device code, user code, where to enter
 * it) and `POST /device/token` (the poll; OAuth error answers). The person's pages: `GET /device` (enter the code;
 * without a session, sign in first and come back), `POST /device` (the approval page), `POST /device/approve`,
 * `POST /device/deny`. The token is minted when the device polls after the approval, never stored.
 */
@Controller()
export class DeviceController {
  constructor(
    @Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Post('device/code')
  async start(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const wait = await spendBudget(this.redis, `device:client:${hashed(request.ip)}`, this.config.mail.signInLimitPerClient);
      if (wait !== null) throw new ProtocolError(429, 'rate_limit_exceeded', 'too many device logins started: try again later', [], { 'retry-after': String(wait) });
      const started = await startDeviceLogin(this.ctx, { client_id: field(request.body, 'client_id'), scope: field(request.body, 'scope') });
      const verification = authenticationLinks(this.config).deviceVerificationUrl;
      void reply
        .status(200)
        .header('cache-control', 'no-store')
        .send({
          device_code: started.deviceCode,
          user_code: started.userCode,
          verification_uri: verification,
          verification_uri_complete: `${verification}?user_code=${encodeURIComponent(started.userCode)}`,
          expires_in: started.expiresInSeconds,
          interval: started.intervalSeconds,
        });
    } catch (error) {
      this.refuse(reply, request, error);
    }
  }

  @Post('device/token')
  async token(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const outcome = await redeemDeviceLogin(this.ctx, bodyOf(request), request.id);
      if (outcome.kind === 'refused') throw new ProtocolError(400, outcome.error, outcome.description);
      void reply
        .status(200)
        .header('cache-control', 'no-store')
        .send({
          access_token: outcome.token,
          token_type: 'Bearer',
          expires_in: Math.max(0, Math.floor((outcome.expiresAt.getTime() - this.ctx.now().getTime()) / 1000)),
          scope: outcome.scopes.join(' '),
          workspace_id: outcome.workspaceId,
          credential_id: outcome.credentialId,
        });
    } catch (error) {
      this.refuse(reply, request, error);
    }
  }

  /** The device endpoints' refusals: RFC 6749 5.2's `error` beside the v1 error document. */
  private refuse(reply: FastifyReply, request: FastifyRequest, error: unknown): void {
    sendProblem(reply, request, reportFailure(request, error, this.logger), oauthErrors);
  }

  @Get('device')
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const typed = (request.query as Record<string, unknown> | undefined)?.['user_code'];
      const code = normalUserCode(typed);
      const session = await sessionOf(this.ctx, request);
      if (!session) {
        // Signing in leads back here, with the code the link carried (the sign-in link itself stays a plain link).
        setCookie(reply, this.config, RETURN_COOKIE, code === null ? '/device' : `/device?user_code=${code}`, 15 * 60);
        return seeOther(reply, '/sign-in');
      }
      if (code === null) return sendPage(reply, 200, deviceCodePage(this.csrf(session)));
      await this.approval(request, reply, session, code);
    } catch (error) {
      sendFailure(reply, request, error, this.logger, 'Device login');
    }
  }

  @Post('device')
  async enter(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const session = await postingSession(this.ctx, request, reply);
      if (!session) return;
      await this.approval(request, reply, session, field(request.body, 'user_code') ?? '');
    } catch (error) {
      sendFailure(reply, request, error, this.logger, 'Device login');
    }
  }

  @Post('device/approve')
  async approve(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    let session: SessionRecord | null = null;
    const body = bodyOf(request);
    try {
      session = await postingSession(this.ctx, request, reply);
      if (!session) return;
      const scopes = body['scopes'] === undefined ? [] : ([] as unknown[]).concat(body['scopes']);
      await approveDeviceLogin(
        this.ctx,
        session.userId,
        { userCode: field(body, 'user_code'), workspaceId: field(body, 'workspaceId'), name: field(body, 'name'), scopes, expiresOn: field(body, 'expiresOn') },
        request.id,
      );
      sendPage(reply, 200, deviceDonePage(true));
    } catch (error) {
      const problem = toProblem(error);
      // A choice the person can correct (name, scopes, expiry) is shown on the approval page again, with its status.
      if (session && problem.status === 400) {
        await this.approval(request, reply, session, field(body, 'user_code') ?? '', problem).catch((e: unknown) => sendFailure(reply, request, e, this.logger, 'Device login'));
        return;
      }
      sendFailure(reply, request, error, this.logger, 'Device login');
    }
  }

  @Post('device/deny')
  async deny(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const session = await postingSession(this.ctx, request, reply);
      if (!session) return;
      await denyDeviceLogin(this.ctx, session.userId, field(request.body, 'user_code'));
      sendPage(reply, 200, deviceDonePage(false));
    } catch (error) {
      sendFailure(reply, request, error, this.logger, 'Device login');
    }
  }

  private csrf(session: SessionRecord): string {
    return formToken(this.config, `session:${session.id}`);
  }

  /**
   * The approval page of a typed code, or the code page again with why not (404). Wrong codes count against the
   * session's and the client address's budgets (429 + Retry-After once spent), so codes cannot be guessed.
   */
  private async approval(request: FastifyRequest, reply: FastifyReply, session: SessionRecord, typed: string, problem?: { status: number; detail: string }): Promise<void> {
    let login;
    try {
      login = await findDeviceLogin(this.ctx, typed);
    } catch (error) {
      const refused = toProblem(error);
      if (refused.status !== 404) throw error;
      const budgets: [string, number][] = [
        [`device:guess:session:${session.id}`, CODE_GUESSES_PER_SESSION],
        [`device:guess:client:${hashed(request.ip)}`, CODE_GUESSES_PER_CLIENT],
      ];
      for (const [key, limit] of budgets) {
        const wait = await spendBudget(this.redis, key, limit);
        if (wait !== null) throw new ProtocolError(429, 'rate_limit_exceeded', 'too many wrong codes: try again later', [], { 'retry-after': String(wait) });
      }
      return sendPage(reply, 404, deviceCodePage(this.csrf(session), typed.slice(0, 20), refused.detail));
    }
    const now = this.ctx.now();
    sendPage(
      reply,
      problem?.status ?? 200,
      deviceApprovalPage({
        csrf: this.csrf(session),
        login,
        workspaces: await accountOverview(this.ctx, session.userId),
        name: `workcell CLI (${day(now)})`,
        ...expiryDays(now),
        defaultDay: day(new Date(now.getTime() + 90 * 24 * 3600_000)),
        ...(problem ? { problem: problem.detail } : {}),
      }),
    );
  }
}
