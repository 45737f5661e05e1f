import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import {
  archiveCustomFieldDefinition,
  createCustomFieldDefinition,
  getCustomFieldDefinition,
  invoke,
  listCustomFieldDefinitions,
  restoreCustomFieldDefinition,
  updateCustomFieldDefinition,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/** Custom-field definitions (scopes custom-field-definitions:*; no resource grants); updates are compare-and-set. */
@Controller()
export class CustomFieldDefinitionsController {
  @Operation('listCustomFieldDefinitions')
  async listCustomFieldDefinitions(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listCustomFieldDefinitions, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createCustomFieldDefinition')
  async createCustomFieldDefinition(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createCustomFieldDefinition, op, { ...(input.body as object) });
    reply.header('location', `/v1/custom-field-definitions/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getCustomFieldDefinition')
  async getCustomFieldDefinition(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getCustomFieldDefinition, op, { id: input.path.id }));
  }

  @Operation('updateCustomFieldDefinition')
  async updateCustomFieldDefinition(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateCustomFieldDefinition, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveCustomFieldDefinition')
  async archiveCustomFieldDefinition(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveCustomFieldDefinition, op, { id: input.path.id });
  }

  @Operation('restoreCustomFieldDefinition')
  async restoreCustomFieldDefinition(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreCustomFieldDefinition, op, { id: input.path.id }));
  }
}
