import { Controller, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { invoke, listAuditEvents } from '@workcell/domain';
import { Input, list, Operation, type OperationInput } from '@workcell/http';
import { CURSOR_PAGE_DEFAULT_LIMIT } from '@workcell/registry';

type AuditQuery = { cursor?: string; limit?: number; action?: string; actorId?: string; from?: string; to?: string };

@Controller()
export class AuditController {
  @Operation('listAuditEvents')
  async list(@Op() op: Op, @Input() input: OperationInput<never, AuditQuery>, @Req() request: FastifyRequest) {
    // `limit` is optional (the registry's documented default), like on every other list.
    const limit = input.query.limit ?? CURSOR_PAGE_DEFAULT_LIMIT;
    const page = await invoke(listAuditEvents, op, { ...input.query, limit });
    return list(page.items, { limit, nextCursor: page.nextCursor }, request);
  }
}
