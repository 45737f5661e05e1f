import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveContact, createContact, getContact, invoke, listContacts, restoreContact, updateContact } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/** Contacts: people and organizations (contract 2, scopes contacts:*); updates are compare-and-set. */
@Controller()
export class ContactsController {
  @Operation('listContacts')
  async listContacts(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listContacts, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createContact')
  async createContact(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createContact, op, { ...(input.body as object) });
    reply.header('location', `/v1/contacts/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getContact')
  async getContact(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getContact, op, { id: input.path.id }));
  }

  @Operation('updateContact')
  async updateContact(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateContact, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveContact')
  async archiveContact(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveContact, op, { id: input.path.id });
  }

  @Operation('restoreContact')
  async restoreContact(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreContact, op, { id: input.path.id }));
  }
}
