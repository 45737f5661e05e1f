import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveCallNote, createCallNote, getCallNote, invoke, listCallNotes, restoreCallNote, updateCallNote } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/** Plain-text call notes about contacts with an archive lifecycle (scopes call-notes:*). */
@Controller()
export class CallNotesController {
  @Operation('listCallNotes')
  async listCallNotes(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listCallNotes, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createCallNote')
  async createCallNote(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createCallNote, op, { ...(input.body as object) });
    reply.header('location', `/v1/call-notes/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getCallNote')
  async getCallNote(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getCallNote, op, { id: input.path.id }));
  }

  @Operation('updateCallNote')
  async updateCallNote(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateCallNote, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveCallNote')
  async archiveCallNote(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveCallNote, op, { id: input.path.id });
  }

  @Operation('restoreCallNote')
  async restoreCallNote(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreCallNote, op, { id: input.path.id }));
  }
}
