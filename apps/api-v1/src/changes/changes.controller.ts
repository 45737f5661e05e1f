import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CredentialRecheck, Op } from '@workcell/auth-kit';
import { getEventCatalog, invoke, listChangesWaiting } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single } from '@workcell/http';
import { ChangeWaits } from './change-waits.js';

/** The durable change feed and the event catalog (contract 6; scopes changes:read, events:read). */
@Controller()
export class ChangesController {
  constructor(
    @Inject(ChangeWaits) private readonly waits: ChangeWaits,
    @Inject(CredentialRecheck) private readonly recheck: CredentialRecheck,
  ) {}

  /**
   * `meta.nextCursor` is always a resumable position (persist it; resuming yields exactly the later events);
   * `links.next` is null once the feed is caught up, so following it ends like any other list. With `wait`, a
   * caught-up request is held until a commit in the workspace or the deadline (domain awaitChanges); the client
   * closing its connection ends the wait and frees the waiter. Each read after a wait verifies the credential again
   * (CredentialRecheck), so a revocation during the wait answers 401 instead of events.
   */
  @Operation('listChanges')
  async listChanges(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const { wait, ...query } = input.query as { wait?: number };
    const gone = new AbortController();
    const abort = () => gone.abort();
    // 'close' of the response: it was sent, or the connection closed before it could be.
    if (wait) reply.raw.once('close', abort);
    try {
      const waiter = wait ? this.waits.take(op.auth.workspaceId, wait, gone.signal) : null;
      const page = await listChangesWaiting(op, { ...query }, waiter, () => this.recheck.v1('listChanges', request));
      const body = list(page.items, page, request);
      return page.more ? body : { ...body, links: { next: null } };
    } finally {
      reply.raw.off('close', abort);
    }
  }

  @Operation('getEventCatalog')
  async getEventCatalog(@Op() op: Op) {
    return single(await invoke(getEventCatalog, op, {}));
  }
}
