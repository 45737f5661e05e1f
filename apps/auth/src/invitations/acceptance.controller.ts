import { createHash } from 'node:crypto';
import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptInvitation, type ProcedureContext } from '@workcell/domain';
import { LOGGER, type Logger, PROCEDURE_CONTEXT, sendProblem, toProblem, v1Errors } from '@workcell/http';

/**
 * Accepting an invitation: the one route of the auth service a person reaches, outside the v1 registry (the invitee
 * has no credential yet; the e-mail's token is the capability). `POST /invitations/accept` with
 * `{ "token", "displayName"? }` answers 201 `{ data: { workspaceId, invitationId, memberId, roleIds } }`, or the v1
 * error document (400 validation_failed, 404 not_found for a token that names nothing, 409 invitation_not_pending for
 * a used, revoked or expired one, 409 already_member). `GET /invitations/accept?token=…` is the page the e-mail's
 * link opens: a form that posts the token from the address bar (never echoed into the page) with the name.
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
  if (response.ok) form.hidden = true;
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
      void reply.status(201).header('cache-control', 'no-store').header('location', `/v1/members/${accepted.memberId}`).send({ data: accepted });
    } catch (error) {
      const problem = toProblem(error);
      if (problem.status >= 500) this.logger.error({ requestId: request.id, err: error instanceof Error ? error.message : String(error) }, 'invitation acceptance failed');
      sendProblem(reply, request, problem, v1Errors);
    }
  }
}
