import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { archiveContact, createContact, getContact, invoke, listContacts, type ProcedureContext, restoreContact, updateContact, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/** Contacts: people and organizations (contract 2, scopes contacts:*); updates are compare-and-set. */
@Controller()
export class ContactsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listContacts')
  async listContacts(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listContacts, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createContact')
  async createContact(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createContact, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/contacts/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getContact')
  async getContact(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getContact, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateContact')
  async updateContact(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateContact, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveContact')
  async archiveContact(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveContact, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreContact')
  async restoreContact(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreContact, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }
}
