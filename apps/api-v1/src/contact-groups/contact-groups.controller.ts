import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveContactGroup, createContactGroup, getContactGroup, invoke, listContactGroups, restoreContactGroup, updateContactGroup } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/** Hierarchical contact groups (scopes contact-groups:*); updates are compare-and-set, re-parenting never forms a cycle. */
@Controller()
export class ContactGroupsController {
  @Operation('listContactGroups')
  async listContactGroups(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listContactGroups, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createContactGroup')
  async createContactGroup(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createContactGroup, op, { ...(input.body as object) });
    reply.header('location', `/v1/contact-groups/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getContactGroup')
  async getContactGroup(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getContactGroup, op, { id: input.path.id }));
  }

  @Operation('updateContactGroup')
  async updateContactGroup(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateContactGroup, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveContactGroup')
  async archiveContactGroup(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveContactGroup, op, { id: input.path.id });
  }

  @Operation('restoreContactGroup')
  async restoreContactGroup(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreContactGroup, op, { id: input.path.id }));
  }
}
