import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import {
  archiveContactGroup,
  createContactGroup,
  getContactGroup,
  invoke,
  listContactGroups,
  type ProcedureContext,
  restoreContactGroup,
  updateContactGroup,
  type V1AuthContext,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/** Hierarchical contact groups (scopes contact-groups:*); updates are compare-and-set, re-parenting never forms a cycle. */
@Controller()
export class ContactGroupsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listContactGroups')
  async listContactGroups(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listContactGroups, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createContactGroup')
  async createContactGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createContactGroup, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/contact-groups/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getContactGroup')
  async getContactGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getContactGroup, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateContactGroup')
  async updateContactGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateContactGroup, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveContactGroup')
  async archiveContactGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveContactGroup, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreContactGroup')
  async restoreContactGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreContactGroup, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }
}
