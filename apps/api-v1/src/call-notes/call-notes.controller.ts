import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { archiveCallNote, createCallNote, getCallNote, invoke, listCallNotes, type ProcedureContext, restoreCallNote, updateCallNote, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/** Plain-text call notes about contacts with an archive lifecycle (scopes call-notes:*). */
@Controller()
export class CallNotesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listCallNotes')
  async listCallNotes(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listCallNotes, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createCallNote')
  async createCallNote(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createCallNote, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/call-notes/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getCallNote')
  async getCallNote(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getCallNote, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateCallNote')
  async updateCallNote(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateCallNote, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveCallNote')
  async archiveCallNote(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveCallNote, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreCallNote')
  async restoreCallNote(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreCallNote, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }
}
