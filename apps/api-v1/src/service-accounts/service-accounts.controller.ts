import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_CLIENT, type AuthClient, internalFailure, V1Auth } from '@workcell/auth-kit';
import {
  createServiceAccount,
  getServiceAccount,
  getServiceAccountResourceGrants,
  invoke,
  listServiceAccountCredentials,
  listServiceAccounts,
  type ProcedureContext,
  replaceServiceAccountResourceGrants,
  updateServiceAccount,
  type V1AuthContext,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, single } from '@workcell/http';

type Body<M extends (input: never) => unknown> = Omit<Parameters<M>[0], 'auth' | 'requestId' | 'id' | 'credentialId'>;
type Id = { id: string };
type CredentialPath = { id: string; credentialId: string };

/**
 * Service accounts, their reveal-once credentials and their resource grants (contract 5.2, 5.3
 * service-accounts:*, resource-grants:*). Whatever mints, rotates or revokes a secret (deleting an account
 * revokes all its credentials) runs in the auth service; the rest runs in-process.
 */
@Controller()
export class ServiceAccountsController {
  constructor(
    @Inject(AUTH_CLIENT) private readonly auth: AuthClient,
    @Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext,
  ) {}

  @Operation('listServiceAccounts')
  async listServiceAccounts(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listServiceAccounts, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createServiceAccount')
  async createServiceAccount(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createServiceAccount, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/service-accounts/${created.id}`);
    return single(created);
  }

  @Operation('getServiceAccount')
  async getServiceAccount(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>) {
    return single(await invoke(getServiceAccount, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateServiceAccount')
  async updateServiceAccount(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    return single(await invoke(updateServiceAccount, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('deleteServiceAccount')
  async deleteServiceAccount(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await this.auth.serviceAccounts.delete.mutate({ id: input.path.id, auth, requestId: request.id }).catch(internalFailure);
  }

  @Operation('listServiceAccountCredentials')
  async listServiceAccountCredentials(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listServiceAccountCredentials, this.ctx, { auth, id: input.path.id, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createServiceAccountCredential')
  async createServiceAccountCredential(
    @V1Auth() auth: V1AuthContext,
    @Input() input: OperationInput<Id, never, Body<AuthClient['serviceAccounts']['createCredential']['mutate']>>,
    @Req() request: FastifyRequest,
  ) {
    // No Location: a service-account credential has no GET of its own (the registry declares none for this 201).
    return single(await this.auth.serviceAccounts.createCredential.mutate({ ...input.body, id: input.path.id, auth, requestId: request.id }).catch(internalFailure));
  }

  @Operation('rotateServiceAccountCredential')
  async rotateServiceAccountCredential(
    @V1Auth() auth: V1AuthContext,
    @Input() input: OperationInput<CredentialPath, never, Body<AuthClient['serviceAccounts']['rotateCredential']['mutate']> | undefined>,
    @Req() request: FastifyRequest,
  ) {
    return single(await this.auth.serviceAccounts.rotateCredential.mutate({ ...input.body, ...input.path, auth, requestId: request.id }).catch(internalFailure));
  }

  @Operation('revokeServiceAccountCredential')
  async revokeServiceAccountCredential(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<CredentialPath>, @Req() request: FastifyRequest): Promise<void> {
    await this.auth.serviceAccounts.revokeCredential.mutate({ ...input.path, auth, requestId: request.id }).catch(internalFailure);
  }

  @Operation('getServiceAccountResourceGrants')
  async getServiceAccountResourceGrants(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>) {
    return single(await invoke(getServiceAccountResourceGrants, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('replaceServiceAccountResourceGrants')
  async replaceServiceAccountResourceGrants(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    return single(await invoke(replaceServiceAccountResourceGrants, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }
}
