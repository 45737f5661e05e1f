import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveProjectStatement, createProjectStatement, getProjectStatement, invoke, listProjectStatements, restoreProjectStatement, updateProjectStatement } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Project statements (contract 2, v0 journal entries; scopes project-statements:*): updates are compare-and-set;
 * budget statements and `purchasePrice` are the finance overlay (libs/domain/src/project-statements/view.ts).
 */
@Controller()
export class ProjectStatementsController {
  @Operation('listProjectStatements')
  async listProjectStatements(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listProjectStatements, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createProjectStatement')
  async createProjectStatement(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createProjectStatement, op, { ...(input.body as object) });
    reply.header('location', `/v1/project-statements/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getProjectStatement')
  async getProjectStatement(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getProjectStatement, op, { id: input.path.id }));
  }

  @Operation('updateProjectStatement')
  async updateProjectStatement(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateProjectStatement, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveProjectStatement')
  async archiveProjectStatement(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveProjectStatement, op, { id: input.path.id });
  }

  @Operation('restoreProjectStatement')
  async restoreProjectStatement(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreProjectStatement, op, { id: input.path.id }));
  }
}
