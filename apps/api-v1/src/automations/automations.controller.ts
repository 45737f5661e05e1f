import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import {
  abortAutomationRun,
  archiveAutomationDefinition,
  createAutomationDefinition,
  getAutomationDefinition,
  getAutomationDefinitionVersion,
  getAutomationRun,
  invoke,
  listAutomationActions,
  listAutomationDefinitions,
  listAutomationDefinitionVersions,
  listAutomationRuns,
  publishAutomationDefinition,
  restoreAutomationDefinition,
  updateAutomationDefinition,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Automations (docs/automations.md; scopes automations:*, writes of a flow also need the scopes it implies).
 * Definition updates and publishes are compare-and-set; an abort answers 202 with an operation that has already
 * succeeded and a `Location` naming the run.
 */
@Controller()
export class AutomationsController {
  @Operation('listAutomationActions')
  async listAutomationActions(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listAutomationActions, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('listAutomationDefinitions')
  async listAutomationDefinitions(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listAutomationDefinitions, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createAutomationDefinition')
  async createAutomationDefinition(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createAutomationDefinition, op, { ...(input.body as object) });
    reply.header('location', `/v1/automation-definitions/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getAutomationDefinition')
  async getAutomationDefinition(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getAutomationDefinition, op, { id: input.path.id }));
  }

  @Operation('updateAutomationDefinition')
  async updateAutomationDefinition(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateAutomationDefinition, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveAutomationDefinition')
  async archiveAutomationDefinition(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveAutomationDefinition, op, { id: input.path.id });
  }

  @Operation('restoreAutomationDefinition')
  async restoreAutomationDefinition(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreAutomationDefinition, op, { id: input.path.id }));
  }

  @Operation('publishAutomationDefinition')
  async publishAutomationDefinition(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const version = await invoke(publishAutomationDefinition, op, { ...(input.body as object), id: input.path.id });
    reply.header('location', `/v1/automation-definitions/${version.definitionId}/versions/${version.number}`);
    return single(version);
  }

  @Operation('listAutomationDefinitionVersions')
  async listAutomationDefinitionVersions(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listAutomationDefinitionVersions, op, { id: input.path.id, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getAutomationDefinitionVersion')
  async getAutomationDefinitionVersion(@Op() op: Op, @Input() input: OperationInput<Id & { versionNumber: string }>) {
    return single(await invoke(getAutomationDefinitionVersion, op, { id: input.path.id, versionNumber: input.path.versionNumber }));
  }

  @Operation('listAutomationRuns')
  async listAutomationRuns(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listAutomationRuns, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getAutomationRun')
  async getAutomationRun(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(getAutomationRun, op, { id: input.path.id }));
  }

  @Operation('abortAutomationRun')
  async abortAutomationRun(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const operation = await invoke(abortAutomationRun, op, { id: input.path.id });
    reply.header('location', `/v1/automation-runs/${operation.resourceId}`);
    return single(operation);
  }
}
