import { Op } from '@workcell/auth-kit';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createLegacyWebhook, getLegacyWebhook, invoke, listLegacyWebhooks, type ProcedureContext, removeLegacyWebhook } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { bodyAliasId, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const CREATE = ['url', 'events'];

/**
 * v0 webhooks: the legacy UNSIGNED subscriptions, their own resource (never a signed v2 subscription; contract
 * 4.3 rule 11). Storage and management only; the event engine delivers later. DELETE archives (404 from then on).
 */
@Controller()
export class WebhooksController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetWebhooks')
  async list(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listLegacyWebhooks, op, { limit, ...(cursor === undefined ? {} : { cursor }) }),
        seekOf(this.ctx, op.auth.workspaceId, 'legacyWebhooks', 'listLegacyWebhooks'),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetWebhooksById')
  async get(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await invoke(getLegacyWebhook, op, { id: input.path._id }));
  }

  @LegacyOperation('legacyPostWebhooks')
  async create(@Op() op: Op, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createLegacyWebhook, op, { ...pick(input.body, CREATE) });
    void reply.status(201);
    return toLegacy(created);
  }

  @LegacyOperation('legacyDeleteWebhooksById')
  async remove(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.delete(op, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteWebhooks')
  async removeByBody(@Op() op: Op, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.delete(op, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async delete(op: Op, id: string): Promise<void> {
    await invoke(removeLegacyWebhook, op, { id });
  }
}
