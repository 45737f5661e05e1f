import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
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
  type ProcedureContext,
  publishAutomationDefinition,
  restoreAutomationDefinition,
  updateAutomationDefinition,
  type V1AuthContext,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, single, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Automations (docs/automations.md; scopes automations:*, writes of a flow also need the scopes it implies).
 * Definition updates and publishes are compare-and-set; an abort answers 202 with an operation that has already
 * succeeded and a `Location` naming the run.
 */
@Controller()
export class AutomationsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listAutomationActions')
  async listAutomationActions(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listAutomationActions, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('listAutomationDefinitions')
  async listAutomationDefinitions(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listAutomationDefinitions, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createAutomationDefinition')
  async createAutomationDefinition(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createAutomationDefinition, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/automation-definitions/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getAutomationDefinition')
  async getAutomationDefinition(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getAutomationDefinition, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateAutomationDefinition')
  async updateAutomationDefinition(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateAutomationDefinition, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveAutomationDefinition')
  async archiveAutomationDefinition(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveAutomationDefinition, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreAutomationDefinition')
  async restoreAutomationDefinition(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreAutomationDefinition, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('publishAutomationDefinition')
  async publishAutomationDefinition(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const version = await invoke(publishAutomationDefinition, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id });
    reply.header('location', `/v1/automation-definitions/${version.definitionId}/versions/${version.number}`);
    return single(version);
  }

  @Operation('listAutomationDefinitionVersions')
  async listAutomationDefinitionVersions(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listAutomationDefinitionVersions, this.ctx, { auth, id: input.path.id, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getAutomationDefinitionVersion')
  async getAutomationDefinitionVersion(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id & { versionNumber: string }>) {
    return single(await invoke(getAutomationDefinitionVersion, this.ctx, { auth, id: input.path.id, versionNumber: input.path.versionNumber }));
  }

  @Operation('listAutomationRuns')
  async listAutomationRuns(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listAutomationRuns, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getAutomationRun')
  async getAutomationRun(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>) {
    return single(await invoke(getAutomationRun, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('abortAutomationRun')
  async abortAutomationRun(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const operation = await invoke(abortAutomationRun, this.ctx, { id: input.path.id, auth, requestId: request.id });
    reply.header('location', `/v1/automation-runs/${operation.resourceId}`);
    return single(operation);
  }
}
