import { createHash } from 'node:crypto';
import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import { acceptInvitation, type AcceptedInvitation, type ProcedureContext, signInInvitee } from '@workcell/domain';
import { APP_CONFIG, LOGGER, type Logger, PROCEDURE_CONTEXT } from '@workcell/http';
import { sendFailure } from '../sign-in/respond.js';
import { setSessionCookie } from '../sign-in/web.js';

/**
 * Accepting an invitation: the one route of the auth service a person reaches, outside the v1 registry (the invitee
 * has no credential yet; the e-mail's token is the capability). `POST /invitations/accept` with
 * `{ "token", "displayName"? }` answers 201 `{ data: { workspaceId, invitationId, memberId, roleIds } }`, or the v1
 * error document (400 validation_failed, 404 not_found for a token that names nothing, 409 invitation_not_pending for
 * a used, revoked or expired one, 409 already_member). `GET /invitations/accept?token=…` is the page the e-mail's
 * link opens: a form that posts the token from the address bar (never echoed into the page) with the name.
 *
 * Accepted from that page, the person is signed in too (the session cookie of docs/authentication.md "Signing in",
 * when the membership is their only one: signInInvitee) and the page links to /account. Only the page's own request
 * does that: a browser marks it `Sec-Fetch-Site: same-origin`, which no other site's page can send, and API clients
 * (which send no such header) get no session cookie they did not ask for.
 */

const SCRIPT = `
const form = document.querySelector('form');
const out = document.querySelector('output');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const token = new URLSearchParams(location.search).get('token') || '';
  const displayName = form.elements.displayName.value.trim();
  const response = await fetch(location.pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(displayName ? { token, displayName } : { token }),
  });
  const body = await response.json().catch(() => ({}));
  out.textContent = response.ok ? 'Welcome: you are now a member of the workspace.' : ((body.errors && body.errors[0] && body.errors[0].detail) || 'The invitation could not be accepted.');
  if (response.ok) {
    form.hidden = true;
    document.getElementById('next').hidden = false;
  }
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Accept your Workcell invitation</title></head>
<body>
<h1>Join the workspace</h1>
<form>
<label>Your name (if you are new to Workcell) <input name="displayName" maxlength="200" autocomplete="name"></label>
<button type="submit">Accept the invitation</button>
</form>
<p><output></output></p>
<p id="next" hidden><a href="/account">Go to your account</a></p>
<script>${SCRIPT}</script>
</body>
</html>
`;

/** Only this page's own script runs; it may only call this service; the token in the address never leaves as a Referer. */
const PAGE_HEADERS = {
  'content-security-policy': `default-src 'none'; script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

@Controller('invitations')
export class InvitationAcceptanceController {
  constructor(
    @Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get('accept')
  page(@Res() reply: FastifyReply): void {
    void reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(PAGE);
  }

  @Post('accept')
  async accept(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      const accepted = await acceptInvitation(this.ctx, request.body, request.id);
      if (request.headers['sec-fetch-site'] === 'same-origin') await this.signIn(reply, accepted, request.id);
      void reply.status(201).header('cache-control', 'no-store').header('location', `/v1/members/${accepted.memberId}`).send({ data: accepted });
    } catch (error) {
      sendFailure(reply, request, error, this.logger, 'Accepting the invitation');
    }
  }

  /** The acceptance has committed: a session that cannot be started is logged, not failed (the person signs in by e-mail link). */
  private async signIn(reply: FastifyReply, accepted: AcceptedInvitation, requestId: string): Promise<void> {
    try {
      const session = await signInInvitee(this.ctx, accepted, requestId);
      if (session) setSessionCookie(reply, this.config, session.secret);
    } catch (error) {
      this.logger.error({ requestId, err: error instanceof Error ? error.message : String(error) }, 'the session of an accepted invitation could not be started');
    }
  }
}
