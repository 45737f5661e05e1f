import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import {
  archiveCustomFieldDefinition,
  createCustomFieldDefinition,
  getCustomFieldDefinition,
  invoke,
  listCustomFieldDefinitions,
  type ProcedureContext,
  restoreCustomFieldDefinition,
  updateCustomFieldDefinition,
  type V1AuthContext,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/** Custom-field definitions (scopes custom-field-definitions:*; no resource grants); updates are compare-and-set. */
@Controller()
export class CustomFieldDefinitionsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listCustomFieldDefinitions')
  async listCustomFieldDefinitions(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listCustomFieldDefinitions, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createCustomFieldDefinition')
  async createCustomFieldDefinition(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createCustomFieldDefinition, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/custom-field-definitions/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getCustomFieldDefinition')
  async getCustomFieldDefinition(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getCustomFieldDefinition, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateCustomFieldDefinition')
  async updateCustomFieldDefinition(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateCustomFieldDefinition, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveCustomFieldDefinition')
  async archiveCustomFieldDefinition(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveCustomFieldDefinition, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreCustomFieldDefinition')
  async restoreCustomFieldDefinition(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreCustomFieldDefinition, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }
}
