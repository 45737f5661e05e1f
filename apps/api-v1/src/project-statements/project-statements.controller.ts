import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import {
  archiveProjectStatement,
  createProjectStatement,
  getProjectStatement,
  invoke,
  listProjectStatements,
  type ProcedureContext,
  restoreProjectStatement,
  updateProjectStatement,
  type V1AuthContext,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Project statements (contract 2, v0 journal entries; scopes project-statements:*): updates are compare-and-set;
 * budget statements and `purchasePrice` are the finance overlay (libs/domain/src/project-statements/view.ts).
 */
@Controller()
export class ProjectStatementsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listProjectStatements')
  async listProjectStatements(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listProjectStatements, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createProjectStatement')
  async createProjectStatement(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createProjectStatement, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/project-statements/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getProjectStatement')
  async getProjectStatement(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getProjectStatement, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateProjectStatement')
  async updateProjectStatement(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateProjectStatement, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveProjectStatement')
  async archiveProjectStatement(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveProjectStatement, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreProjectStatement')
  async restoreProjectStatement(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreProjectStatement, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }
}
