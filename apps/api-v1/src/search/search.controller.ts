import { Controller, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { invoke, searchResources } from '@workcell/domain';
import { Input, list, Operation, type OperationInput } from '@workcell/http';

/** Federated search (search:read plus each requested domain's read scope: the registry's `requested-domains` rule). */
@Controller()
export class SearchController {
  @Operation('searchResources')
  async searchResources(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(searchResources, op, { ...input.query });
    return list(page.items, page, request);
  }
}
